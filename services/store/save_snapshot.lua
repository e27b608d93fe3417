-- Save a snapshot only if it moves forward: snap.version < new <= meta.version.
-- A snapshot of another schema or rules_version is invalid anyway, so it may be replaced by
-- any version (otherwise an old-rules snapshot would block new ones until the game passed it).
-- KEYS: 1 snap hash, 2 meta hash
-- ARGV: 1 version, 2 schema, 3 rules_version, 4 state
-- Returns {'saved', version} | {'ahead', meta.version} | {'stale', snap.version}
local new = tonumber(ARGV[1])
local top = tonumber(redis.call('HGET', KEYS[2], 'version') or '0')
if new > top then return {'ahead', tostring(top)} end

local cur = redis.call('HMGET', KEYS[1], 'version', 'schema', 'rules_version')
if cur[1] and cur[2] == ARGV[2] and cur[3] == ARGV[3] and tonumber(cur[1]) >= new then
  return {'stale', cur[1]}
end
redis.call('HSET', KEYS[1], 'version', ARGV[1], 'schema', ARGV[2], 'rules_version', ARGV[3],
  'state', ARGV[4])
return {'saved', ARGV[1]}
