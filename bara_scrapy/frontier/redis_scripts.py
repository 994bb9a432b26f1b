"""Lua scripts of the shared frontier: each runs atomically inside Redis.

They are `bara_scrapy.frontier.Frontier` moved into Redis, plus leases. Keys of one crawl share
the hash tag `{job}` so that a Redis Cluster keeps a whole site on one shard. `meta` holds the
counters (`count` admitted, `next` to expand, `delivered`, `dropped`, `requeued`, limits);
`adm` bfs_index -> [url, depth, parent]; `pending` bfs_index -> [children, also_seen] for pages
finished out of turn; `queue` (zset by bfs_index) pages to lease; `leases` (zset by expiry, ms
of Redis's clock) and `owner` the leased ones; `done` the delivered ones; `claims` bfs_index -> the
writer (host, feed paths) that is writing the page's item, from COMPLETE until DELIVER; `unconfirmed`
(zset by the time its lease expired) claimed pages whose writer died before DELIVER: a worker that
can read the writer's feed decides (RESOLVE) whether the item is there (delivered) or not (queued
again), so an item is written at most once per page whatever moment its worker dies. A script returns
nil when `meta` is gone (Redis restarted without the crawl's data): the caller fails fast.
"""

from __future__ import annotations

KEYS = ("meta", "seen", "adm", "pending", "queue", "leases", "owner", "done", "claims", "unconfirmed")

_PRELUDE = """
local meta, seen, adm, pending, queue, leases, owner, done, claims, unconfirmed =
  KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7], KEYS[8], KEYS[9], KEYS[10]
local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
"""

# ARGV: seed url, max_depth, max_pages, job signature. 1 admitted, 0 already there, -1 another job.
SEED = _PRELUDE + """
if redis.call('HEXISTS', meta, 'count') == 1 then
  if redis.call('HGET', meta, 'job') ~= ARGV[4] then return -1 end
  return 0
end
redis.call('HSET', meta, 'count', 1, 'next', 0, 'delivered', 0, 'dropped', 0, 'requeued', 0,
           'max_depth', ARGV[2], 'max_pages', ARGV[3], 'job', ARGV[4])
redis.call('HSET', adm, 0, cjson.encode({ARGV[1], 0, cjson.null}))
redis.call('SADD', seen, ARGV[1])
redis.call('ZADD', queue, 0, 0)
return 1
"""

# ARGV: worker, how many, lease ms. Expired leases go back to the queue first (unless delivered; a page
# whose item was being written waits in `unconfirmed` for RESOLVE instead).
# Returns {requeued, {bfs_index, admission json, ...}, how many pages are unconfirmed}.
LEASE = _PRELUDE + """
if redis.call('HEXISTS', meta, 'count') == 0 then return false end
local now = now_ms()
local expired = redis.call('ZRANGEBYSCORE', leases, '-inf', now)
for _, idx in ipairs(expired) do
  redis.call('ZREM', leases, idx)
  redis.call('HDEL', owner, idx)
  if redis.call('SISMEMBER', done, idx) == 0 then
    if redis.call('HEXISTS', claims, idx) == 1 then redis.call('ZADD', unconfirmed, now, idx)
    else redis.call('ZADD', queue, idx, idx) end
  end
end
if #expired > 0 then redis.call('HINCRBY', meta, 'requeued', #expired) end
local out = {}
local n = tonumber(ARGV[2])
if n > 0 then
  local popped = redis.call('ZPOPMIN', queue, n)
  for i = 1, #popped, 2 do
    local idx = popped[i]
    redis.call('ZADD', leases, now + tonumber(ARGV[3]), idx)
    redis.call('HSET', owner, idx, ARGV[1])
    table.insert(out, idx)
    table.insert(out, redis.call('HGET', adm, idx))
  end
end
return {#expired, out, redis.call('ZCARD', unconfirmed)}
"""

# ARGV: worker, lease ms, bfs_index... Extends this worker's leases; returns how many.
RENEW = _PRELUDE + """
if redis.call('HEXISTS', meta, 'count') == 0 then return false end
local until_ms = now_ms() + tonumber(ARGV[2])
local renewed = 0
for i = 3, #ARGV do
  if redis.call('HGET', owner, ARGV[i]) == ARGV[1] then
    redis.call('ZADD', leases, 'XX', until_ms, ARGV[i])
    renewed = renewed + 1
  end
end
return renewed
"""

# ARGV: bfs_index, worker, json [children, also_seen], claim. Records the page (first result wins) and
# expands every page whose turn has come, exactly like Frontier.complete. Returns {deliver, recorded}:
# deliver 1 when this worker holds the lease and nobody delivered the page yet; the claim (who writes
# the item, where) is then recorded until DELIVER.
COMPLETE = _PRELUDE + """
if redis.call('HEXISTS', meta, 'count') == 0 then return false end
local idx = tonumber(ARGV[1])
local deliver = 0
if redis.call('SISMEMBER', done, idx) == 0 and redis.call('HGET', owner, idx) == ARGV[2]
   and redis.call('HEXISTS', claims, idx) == 0 then
  deliver = 1
  if ARGV[4] and ARGV[4] ~= '' then redis.call('HSET', claims, idx, ARGV[4]) end
end
local m = redis.call('HMGET', meta, 'next', 'count', 'dropped', 'max_depth', 'max_pages')
local nxt, count, dropped = tonumber(m[1]), tonumber(m[2]), tonumber(m[3])
local max_depth, max_pages = tonumber(m[4]), tonumber(m[5])
if idx >= count then return redis.error_reply('page ' .. idx .. ' was never admitted') end
if idx < nxt or redis.call('HEXISTS', pending, idx) == 1 then return {deliver, 0} end
redis.call('HSET', pending, idx, ARGV[3])
while redis.call('HEXISTS', pending, nxt) == 1 do
  local data = cjson.decode(redis.call('HGET', pending, nxt))
  redis.call('HDEL', pending, nxt)
  for _, url in ipairs(data[2]) do redis.call('SADD', seen, url) end
  local parent = cjson.decode(redis.call('HGET', adm, nxt))
  local depth = parent[2] + 1
  if depth <= max_depth then
    for _, url in ipairs(data[1]) do
      if redis.call('SISMEMBER', seen, url) == 0 then
        if count >= max_pages then
          dropped = dropped + 1
        else
          redis.call('HSET', adm, count, cjson.encode({url, depth, parent[1]}))
          redis.call('SADD', seen, url)
          redis.call('ZADD', queue, count, count)
          count = count + 1
        end
      end
    end
  end
  nxt = nxt + 1
end
redis.call('HSET', meta, 'next', nxt, 'count', count, 'dropped', dropped)
return {deliver, 1}
"""

# ARGV: bfs_index. The page's item is written: never lease it again. 1 first time, 0 repeat.
DELIVER = _PRELUDE + """
if redis.call('HEXISTS', meta, 'count') == 0 then return false end
redis.call('ZREM', leases, ARGV[1])
redis.call('HDEL', owner, ARGV[1])
redis.call('HDEL', claims, ARGV[1])
redis.call('ZREM', unconfirmed, ARGV[1])
if redis.call('SADD', done, ARGV[1]) == 0 then return 0 end
redis.call('HINCRBY', meta, 'delivered', 1)
return 1
"""

# No ARGV. The claimed pages whose writer died: {bfs_index, claim, admission json, ms since, ...}.
UNCONFIRMED = _PRELUDE + """
if redis.call('HEXISTS', meta, 'count') == 0 then return false end
local now = now_ms()
local out = {}
local rows = redis.call('ZRANGE', unconfirmed, 0, 63, 'WITHSCORES')
for i = 1, #rows, 2 do
  local idx = rows[i]
  table.insert(out, idx)
  table.insert(out, redis.call('HGET', claims, idx) or '')
  table.insert(out, redis.call('HGET', adm, idx) or '')
  table.insert(out, now - tonumber(rows[i + 1]))
end
return out
"""

# ARGV: bfs_index, 1 when the dead writer's feed holds the item (delivered) or 0 (queued again).
# Returns 1 when this call decided, 0 when the page was no longer unconfirmed.
RESOLVE = _PRELUDE + """
if redis.call('HEXISTS', meta, 'count') == 0 then return false end
if redis.call('ZREM', unconfirmed, ARGV[1]) == 0 then return 0 end
redis.call('HDEL', claims, ARGV[1])
if ARGV[2] == '1' then
  if redis.call('SADD', done, ARGV[1]) == 1 then redis.call('HINCRBY', meta, 'delivered', 1) end
elseif redis.call('SISMEMBER', done, ARGV[1]) == 0 then
  redis.call('ZADD', queue, ARGV[1], ARGV[1])
  redis.call('HINCRBY', meta, 'requeued', 1)
end
return 1
"""
