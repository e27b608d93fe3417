-- Append a batch of events to one game, atomically (docs/design.md "Redis layout").
-- KEYS: 1 ev stream, 2 meta hash, 3 outcomes hash, 4 partition feed
-- KEYS (optional, the next prompt): 5 prompt stream, 6 deadline set
-- ARGV: 1 expected version, 2 the command's outcome field (`<scope>:<command id>`), 3 game
--       id, 4 outcome to store (JSON), 5 how long the outcomes live once the game is over (s),
--       6 the command's body (JSON, '' for none),
--       7 the winner if these events end the game ('-1': nobody; '': the game goes on), so
--         meta.status turns "finished" (and the outcomes start to expire) in the same step as
--         the final event,
--       8 publish: '1' the feed entry, the finish and the prompt now; '0' not yet (the store
--         waits for a replica first, then publish.lua writes them: services/store/durability.py)
--       9 K = number of prompt fields (0: no prompt), 10..9+2K the prompt's field/value pairs,
--       then (if K > 0) deadline member, deadline (ms), the previous prompt's member ('' none),
--       then the event payloads (one per event, in order)
-- The prompt for the seat that must act next is written only if the events are: one round
-- trip (and one AOF fsync with appendfsync always) per command instead of two.
-- The first entry of the batch stores the command body under `command`, so an auditor can
-- re-run every command (docs/archive-format.md).
-- Returns {status, detail}:
--   {'duplicate', stored outcome} the command already has an outcome; nothing written
--   {'missing', '0'}              the game does not exist (no meta); nothing written
--   {'conflict', version}         meta.version ~= expected; nothing written
--   {'corrupt', last id}          the log's top id disagrees with meta.version; nothing written
--   {'accepted', new version}
-- Every check runs before the first write: a Lua error after a write does not roll back.
local done = redis.call('HGET', KEYS[3], ARGV[2])
if done then return {'duplicate', done} end
local command_id = string.sub(ARGV[2], string.find(ARGV[2], ':', 1, true) + 1)

local v = redis.call('HGET', KEYS[2], 'version')
if not v then return {'missing', '0'} end
v = tonumber(v)
if v ~= tonumber(ARGV[1]) then return {'conflict', tostring(v)} end

local top = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
local top_id = '0-0'
if #top > 0 then top_id = top[1][1] end
if top_id ~= (v .. '-0') then return {'corrupt', top_id} end

local k = tonumber(ARGV[9])
local first = 10 + 2 * k
if k > 0 then first = first + 3 end
local n = #ARGV - first + 1
for i = 1, n do
  if i == 1 and ARGV[6] ~= '' then
    redis.call('XADD', KEYS[1], (v + i) .. '-0', '__data__', ARGV[first + i - 1], 'cmd', command_id,
               'command', ARGV[6])
  else
    redis.call('XADD', KEYS[1], (v + i) .. '-0', '__data__', ARGV[first + i - 1], 'cmd', command_id)
  end
end
redis.call('HSET', KEYS[2], 'version', v + n)
redis.call('HSET', KEYS[3], ARGV[2], ARGV[4])
if ARGV[8] == '1' then
  redis.call('XADD', KEYS[4], '*', 'game', ARGV[3], 'from', v + 1, 'to', v + n, 'cmd', command_id)
  if ARGV[7] ~= '' then
    redis.call('HSET', KEYS[2], 'status', 'finished', 'winner', ARGV[7])
    redis.call('EXPIRE', KEYS[3], ARGV[5])
  end
  if k > 0 then
    local fields = {}
    for i = 1, 2 * k do fields[i] = ARGV[9 + i] end
    redis.call('XADD', KEYS[5], 'MAXLEN', '~', 10000, '*', unpack(fields))
    local member, deadline, previous = ARGV[10 + 2 * k], ARGV[11 + 2 * k], ARGV[12 + 2 * k]
    if previous ~= '' then redis.call('ZREM', KEYS[6], previous) end
    redis.call('ZADD', KEYS[6], deadline, member)
  end
end
return {'accepted', tostring(v + n)}
