-- Record a command's outcome unless it has one; returns the outcome that stands.
-- KEYS: 1 outcomes hash, 2 meta hash
-- ARGV: 1 field (`<scope>:<command id>`), 2 outcome (JSON), 3 TTL (s) when the game does not
--       exist or is over (its outcomes are then only kept for a while)
local stood = redis.call('HGET', KEYS[1], ARGV[1])
if stood then return stood end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
local status = redis.call('HGET', KEYS[2], 'status')
if not status or status == 'finished' then redis.call('EXPIRE', KEYS[1], ARGV[3]) end
return ARGV[2]
