-- Create a game: meta (version 1 + the given fields), its secrets and event 1, only if nothing
-- exists yet. With a command id, also the creating request's outcome (in the game's outcomes
-- hash), so a retried create is answered by it.
-- KEYS: 1 ev stream, 2 meta hash, 3 partition feed, 4 secret hash, 5 outcomes hash
-- ARGV: 1 game id, 2 event 1 payload, 3 command id ('' if none), 4 outcome (JSON),
--       5 the outcome's field ('' if none), 6 M = number of meta items (field and value each count one),
--       7..6+M meta field/value pairs, then the secret hash's field/value pairs
-- Returns {'created', '1'} | {'duplicate', stored outcome} | {'exists', current version};
-- nothing is written unless 'created'.
if ARGV[5] ~= '' then
  local done = redis.call('HGET', KEYS[5], ARGV[5])
  if done then return {'duplicate', done} end
end
if redis.call('EXISTS', KEYS[1], KEYS[2]) > 0 then
  return {'exists', tostring(redis.call('HGET', KEYS[2], 'version') or '0')}
end
redis.call('XADD', KEYS[1], '1-0', '__data__', ARGV[2], 'cmd', ARGV[3])
local m = tonumber(ARGV[6])
if m > 0 then
  redis.call('HSET', KEYS[2], 'version', 1, unpack(ARGV, 7, 6 + m))
else
  redis.call('HSET', KEYS[2], 'version', 1)
end
if #ARGV > 6 + m then redis.call('HSET', KEYS[4], unpack(ARGV, 7 + m)) end
redis.call('XADD', KEYS[3], '*', 'game', ARGV[1], 'from', 1, 'to', 1, 'cmd', ARGV[3])
-- Outcomes recorded before the game existed (a refused request for the same id) expired; the
-- game's own live as long as it does.
redis.call('PERSIST', KEYS[5])
if ARGV[5] ~= '' then redis.call('HSET', KEYS[5], ARGV[5], ARGV[4]) end
return {'created', '1'}
