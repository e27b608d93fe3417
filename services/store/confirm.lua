-- Before a WAIT that repeats one that ran out (services/store/durability.py): a write on this
-- connection, so that the WAIT covers everything this node holds now, and the outcome it is
-- about, read in the same step.
-- KEYS: 1 outcomes hash, 2 the partition's barrier counter
-- ARGV: 1 the outcome's field
-- Returns the outcome as stored, or nil when this node does not hold it (lost with a primary).
local outcome = redis.call('HGET', KEYS[1], ARGV[1])
redis.call('INCR', KEYS[2])
return outcome
