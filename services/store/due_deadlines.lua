-- The deadline keeper's tick (services/rules/deadlines.py), ten times a second: every
-- partition's due deadlines in one call. As a pipeline of one ZRANGEBYSCORE per partition it
-- cost an idle rules service about 2% of a core, most of it in the client.
-- KEYS: the partitions' deadline sorted sets (one server only: on a Cluster they are in
--       different slots, and each is asked on its own)
-- ARGV: 1 now (ms), 2 the most members returned per key
-- Returns, per key, its members due by now, earliest first.
local due = {}
for i, key in ipairs(KEYS) do
  due[i] = redis.call('ZRANGEBYSCORE', key, 0, ARGV[1], 'LIMIT', 0, ARGV[2])
end
return due
