-- Publish a command's outcome once a replica holds it (services/store/durability.py): until
-- now its outcome was stored marked unreplicated, which clients do not take for an answer, and
-- nobody was told of the batch. Check-and-set on the outcome, so it is published once however
-- many writers (a retry, another rules replica) get here.
-- KEYS: 1 outcomes hash, 2 meta hash, 3 partition feed
-- KEYS (optional, the next prompt): 4 prompt stream, 5 deadline set
-- ARGV: 1 the outcome's field, 2 the outcome as stored (unreplicated), 3 the outcome to
--       publish, 4 game id, 5 first version of the batch ('': no feed entry, not a batch),
--       6 last version, 7 command id, 8 outcomes' TTL once the game is over (s),
--       9 the winner if the batch ends the game ('' it goes on; '-1' nobody),
--       10 K = number of prompt fields, 11..10+2K their pairs, then (if K > 0) deadline
--       member, deadline (ms), the previous prompt's member ('' none)
-- Returns 1 published; 0 published already (or changed since); -1 the outcome is not here: the
-- primary that had it was lost before a replica got it, and the command must be written again.
local now = redis.call('HGET', KEYS[1], ARGV[1])
if not now then return -1 end
if now ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
if ARGV[5] ~= '' then
  redis.call('XADD', KEYS[3], '*', 'game', ARGV[4], 'from', ARGV[5], 'to', ARGV[6], 'cmd', ARGV[7])
end
if ARGV[9] ~= '' then
  redis.call('HSET', KEYS[2], 'status', 'finished', 'winner', ARGV[9])
  redis.call('EXPIRE', KEYS[1], ARGV[8])
end
local k = tonumber(ARGV[10])
if k > 0 then
  local fields = {}
  for i = 1, 2 * k do fields[i] = ARGV[10 + i] end
  redis.call('XADD', KEYS[4], 'MAXLEN', '~', 10000, '*', unpack(fields))
  local member, deadline, previous = ARGV[11 + 2 * k], ARGV[12 + 2 * k], ARGV[13 + 2 * k]
  if previous ~= '' then redis.call('ZREM', KEYS[5], previous) end
  redis.call('ZADD', KEYS[5], deadline, member)
end
return 1
