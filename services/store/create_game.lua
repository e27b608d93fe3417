-- Create a game: meta (version 1 + the given fields) and event 1, only if nothing exists yet.
-- With a 4th key, also the creating command's outcome, so a retried create is answered by it.
-- KEYS: 1 ev stream, 2 meta hash, 3 partition feed, [4 command outcome key]
-- ARGV: 1 game id, 2 event 1 payload, 3 command id ('' if none), 4 outcome (JSON, with key 4),
--       5 outcome TTL seconds, 6.. meta field/value pairs
-- Returns {'created', '1'} | {'duplicate', stored outcome} | {'exists', current version};
-- nothing is written unless 'created'.
if #KEYS == 4 then
  local done = redis.call('GET', KEYS[4])
  if done then return {'duplicate', done} end
end
if redis.call('EXISTS', KEYS[1], KEYS[2]) > 0 then
  return {'exists', tostring(redis.call('HGET', KEYS[2], 'version') or '0')}
end
redis.call('XADD', KEYS[1], '1-0', '__data__', ARGV[2], 'cmd', ARGV[3])
if #ARGV > 5 then
  redis.call('HSET', KEYS[2], 'version', 1, unpack(ARGV, 6))
else
  redis.call('HSET', KEYS[2], 'version', 1)
end
redis.call('XADD', KEYS[3], '*', 'game', ARGV[1], 'from', 1, 'to', 1, 'cmd', ARGV[3])
if #KEYS == 4 then redis.call('SET', KEYS[4], ARGV[4], 'EX', ARGV[5]) end
return {'created', '1'}
