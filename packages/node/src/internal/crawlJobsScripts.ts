/**
 * The Lua scripts of the crawl jobs on Redis. Each runs atomically on the server, so the decisions that must be
 * taken once across replicas are: a job admitted against its workspace's limits (`start`), a URL queued once
 * (the seen set, the `maxPages` cap and the stream's XADD together), a claimed URL settled once (its XACK first:
 * an entry another replica already settled acknowledges 0 and changes nothing), and a job completed once (the
 * outstanding count reaching 0 in the same script that settles the last URL).
 *
 * Keys are derived inside the scripts from a job's base key (`<prefix>:crawl:job:<id>`): a standalone Redis (or a
 * replicated one), not Redis Cluster.
 *
 * Layout, per job `J`: `J` (hash: the record, its counts `pages`/`failed`/`sk:<reason>`, cuts `cut:<reason>`,
 * `outstanding`, `queued`: URLs queued, the start included, what `maxPages` caps), `J:seen` (keys queued or read),
 * `J:read` (keys a page answered for), `J:skipped` (the SHA-1 of each distinct skipped URL, up to 100,000), `J:results` (hash: one entry per normalised URL), `J:order` (list: result keys in
 * arrival order, for paging), `J:stream` (the frontier, group `workers`), `J:owner` (a hosted crawl's replica
 * lease). Per workspace `<prefix>:crawl:ws:<workspace>` (set of job ids); `<prefix>:crawl:active` (set of jobs
 * the workers read).
 */

/** The consumer group of every job's stream. */
export const group = "workers"

const common = `
local function jobKeys(jk)
  return {jk, jk .. ':seen', jk .. ':read', jk .. ':skipped', jk .. ':results', jk .. ':order', jk .. ':stream', jk .. ':owner'}
end
local function expireJob(jk, retention)
  for _, k in ipairs(jobKeys(jk)) do redis.call('PEXPIRE', k, retention) end
  redis.call('DEL', jk .. ':stream')
end
local function deleteJob(jk)
  redis.call('DEL', unpack(jobKeys(jk)))
end
`

/**
 * Admits a job against its workspace's limits and creates it.
 * ARGV: base, workspace, id, now, maxRunning, maxPages (workspace), maxFinished, asked (the job's maxPages),
 * method (own|hosted), request JSON, url, providerId, startKey, maxDepth.
 * Answers `{verdict, running, held}`: `ok`, `running` (past the running limit) or `pages` (past the pages held).
 */
export const start = `${common}
local base, ws, id = ARGV[1], ARGV[2], ARGV[3]
local now, maxRunning, limitPages = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local maxFinished, asked, method = tonumber(ARGV[7]), tonumber(ARGV[8]), ARGV[9]
local wsKey = base .. ':ws:' .. ws
local running, held = 0, 0
local finished = {}
for _, jid in ipairs(redis.call('SMEMBERS', wsKey)) do
  local jk = base .. ':job:' .. jid
  local v = redis.call('HMGET', jk, 'status', 'maxPages', 'pages', 'failed', 'updatedAt')
  if not v[1] then
    redis.call('SREM', wsKey, jid)
  elseif v[1] == 'running' then
    running = running + 1
    held = held + tonumber(v[2])
  else
    local count = tonumber(v[3]) + tonumber(v[4])
    held = held + count
    table.insert(finished, {jid, tonumber(v[5]), count})
  end
end
if #finished > maxFinished then
  table.sort(finished, function(a, b) return a[2] < b[2] end)
  for i = 1, #finished - maxFinished do
    deleteJob(base .. ':job:' .. finished[i][1])
    redis.call('SREM', wsKey, finished[i][1])
    held = held - finished[i][3]
  end
end
if running >= maxRunning then return {'running', running, held} end
if held + asked > limitPages then return {'pages', running, held} end
local jk = base .. ':job:' .. id
redis.call('HSET', jk, 'workspace', ws, 'request', ARGV[10], 'url', ARGV[11], 'providerId', ARGV[12],
  'status', 'running', 'createdAt', now, 'updatedAt', now, 'pages', 0, 'failed', 0, 'maxPages', asked,
  'maxDepth', ARGV[14], 'method', method, 'outstanding', 1, 'queued', 1)
redis.call('SADD', wsKey, id)
if method == 'own' then
  redis.call('XGROUP', 'CREATE', jk .. ':stream', '${group}', '0', 'MKSTREAM')
  redis.call('SADD', jk .. ':seen', ARGV[13])
  redis.call('XADD', jk .. ':stream', '*', 'url', ARGV[11], 'depth', '0', 'key', ARGV[13])
  redis.call('SADD', base .. ':active', id)
end
return {'ok', running, held}
`

/**
 * Settles one claimed URL of a job: acknowledged first (an entry already settled elsewhere changes nothing), then
 * its outcome recorded and its links admitted, then the outstanding count decremented, completing the job when it
 * reaches 0.
 * ARGV: base, id, entryId, now, retention, kind (page|fail|skip|timeout|startfail|noop), then per kind:
 * - page: result key, event JSON, keys JSON, depth, skips JSON ([reason, key]...), links JSON ([url, key]...)
 * - fail: result key, event JSON
 * - skip: reason
 * - timeout: message
 * - startfail: error JSON
 * Answers 0 (nothing: already settled, or the job is no longer running), 1 (settled), 2 (settled, and the job
 * completed with it), 3 (the job failed).
 */
export const settle = `${common}
local base, id, entryId = ARGV[1], ARGV[2], ARGV[3]
local now, retention, kind = ARGV[4], tonumber(ARGV[5]), ARGV[6]
local jk = base .. ':job:' .. id
if redis.call('XACK', jk .. ':stream', '${group}', entryId) == 0 then return 0 end
if redis.call('HGET', jk, 'status') ~= 'running' then return 0 end
local function skip(reason, key)
  if redis.call('SCARD', jk .. ':skipped') < 100000 then
    if redis.call('SADD', jk .. ':skipped', redis.sha1hex(key)) == 0 then return end
  end
  redis.call('HINCRBY', jk, 'sk:' .. reason, 1)
end
local function store(key, event, counter)
  if redis.call('HSETNX', jk .. ':results', key, event) == 1 then
    redis.call('RPUSH', jk .. ':order', key)
    redis.call('HINCRBY', jk, counter, 1)
  end
end
redis.call('HSET', jk, 'updatedAt', now)
if kind == 'startfail' then
  redis.call('HSET', jk, 'status', 'failed', 'error', ARGV[7])
  redis.call('SREM', base .. ':active', id)
  expireJob(jk, retention)
  return 3
elseif kind == 'skip' then
  redis.call('HINCRBY', jk, 'sk:' .. ARGV[7], 1)
elseif kind == 'fail' then
  store(ARGV[7], ARGV[8], 'failed')
elseif kind == 'timeout' then
  redis.call('HSETNX', jk, 'cut:timeout', ARGV[7])
elseif kind == 'page' then
  local keys = cjson.decode(ARGV[9])
  local duplicate = false
  for _, k in ipairs(keys) do
    if redis.call('SISMEMBER', jk .. ':read', k) == 1 then duplicate = true end
  end
  if duplicate then
    redis.call('HINCRBY', jk, 'sk:duplicate', 1)
  else
    for _, k in ipairs(keys) do
      redis.call('SADD', jk .. ':read', k)
      redis.call('SADD', jk .. ':seen', k)
    end
    store(ARGV[7], ARGV[8], 'pages')
    for _, s in ipairs(cjson.decode(ARGV[11])) do skip(s[1], s[2]) end
    local depth = tonumber(ARGV[10]) + 1
    local v = redis.call('HMGET', jk, 'maxDepth', 'maxPages')
    local maxDepth, maxPages = tonumber(v[1]), tonumber(v[2])
    for _, link in ipairs(cjson.decode(ARGV[12])) do
      if redis.call('SISMEMBER', jk .. ':seen', link[2]) == 0 then
        if depth > maxDepth then
          skip('depth', link[2])
        elseif tonumber(redis.call('HGET', jk, 'queued') or '1') >= maxPages then
          redis.call('HSETNX', jk, 'cut:maxPages',
            'the crawl queued ' .. maxPages .. ' pages (maxPages); the site links to more')
          break
        else
          redis.call('SADD', jk .. ':seen', link[2])
          redis.call('XADD', jk .. ':stream', '*', 'url', link[1], 'depth', tostring(depth), 'key', link[2])
          redis.call('HINCRBY', jk, 'outstanding', 1)
          redis.call('HINCRBY', jk, 'queued', 1)
        end
      end
    end
  end
end
if redis.call('HINCRBY', jk, 'outstanding', -1) <= 0 then
  redis.call('HSET', jk, 'status', 'completed')
  redis.call('SREM', base .. ':active', id)
  expireJob(jk, retention)
  return 2
end
return 1
`

/**
 * Records one event of a hosted crawl (run on the replica that started it), or finishes it.
 * ARGV: base, id, now, retention, kind (page|fail|done|failed), then: page/fail: result key, event JSON;
 * done: skipped JSON ({reason: count}), cuts JSON ([reason, message]...); failed: error JSON.
 * Answers 0 when the job is no longer running (cancelled: the crawl should stop), 1 otherwise.
 */
export const hosted = `${common}
local base, id, now, retention, kind = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4]), ARGV[5]
local jk = base .. ':job:' .. id
if redis.call('HGET', jk, 'status') ~= 'running' then return 0 end
redis.call('HSET', jk, 'updatedAt', now)
if kind == 'page' or kind == 'fail' then
  if redis.call('HSETNX', jk .. ':results', ARGV[6], ARGV[7]) == 1 then
    redis.call('RPUSH', jk .. ':order', ARGV[6])
    redis.call('HINCRBY', jk, kind == 'page' and 'pages' or 'failed', 1)
  end
  return 1
elseif kind == 'done' then
  for reason, count in pairs(cjson.decode(ARGV[6])) do redis.call('HSET', jk, 'sk:' .. reason, count) end
  for _, cut in ipairs(cjson.decode(ARGV[7])) do redis.call('HSETNX', jk, 'cut:' .. cut[1], cut[2]) end
  redis.call('HSET', jk, 'status', 'completed')
else
  redis.call('HSET', jk, 'status', 'failed', 'error', ARGV[6])
end
expireJob(jk, retention)
return 1
`

/**
 * Cancels a running job of the workspace (its frontier dropped: claimed URLs settle to nothing) or deletes a
 * finished one. ARGV: base, workspace, id, now, retention. Answers `missing`, `cancelled` or `deleted`.
 */
export const cancel = `${common}
local base, ws, id, now, retention = ARGV[1], ARGV[2], ARGV[3], ARGV[4], tonumber(ARGV[5])
local jk = base .. ':job:' .. id
local v = redis.call('HMGET', jk, 'status', 'workspace')
if not v[1] or v[2] ~= ws then return 'missing' end
if v[1] == 'running' then
  redis.call('HSET', jk, 'status', 'cancelled', 'updatedAt', now)
  redis.call('SREM', base .. ':active', id)
  expireJob(jk, retention)
  return 'cancelled'
end
deleteJob(jk)
redis.call('SREM', base .. ':ws:' .. ws, id)
return 'deleted'
`

/**
 * Marks a running hosted job failed when the replica that ran it is gone (its owner lease lapsed).
 * ARGV: base, id, now, retention, error JSON. Answers 1 when it did.
 */
export const orphaned = `${common}
local base, id, now, retention = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4])
local jk = base .. ':job:' .. id
local v = redis.call('HMGET', jk, 'status', 'method')
if v[1] ~= 'running' or v[2] ~= 'hosted' or redis.call('EXISTS', jk .. ':owner') == 1 then return 0 end
redis.call('HSET', jk, 'status', 'failed', 'updatedAt', now, 'error', ARGV[5])
expireJob(jk, retention)
return 1
`

/**
 * Politeness per job and host across replicas: at most `concurrency` leases (each expiring after `ttl`, so a dead
 * replica's lease lapses) and one start per `delay`, on the server's clock.
 * ARGV: leases key, next key, concurrency, delay, ttl, token. Answers 0 (leased) or milliseconds to wait.
 */
export const acquireHost = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local leases, nextKey = ARGV[1], ARGV[2]
local concurrency, delay, ttl = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
redis.call('ZREMRANGEBYSCORE', leases, '-inf', now)
if redis.call('ZCARD', leases) >= concurrency then return 25 end
local nxt = tonumber(redis.call('GET', nextKey) or '0')
if nxt > now then return nxt - now end
redis.call('ZADD', leases, now + ttl, ARGV[6])
redis.call('PEXPIRE', leases, ttl)
redis.call('SET', nextKey, tostring(now + delay), 'PX', delay + 60000)
return 0
`

/**
 * Pauses a job's host until `seconds` from now (a Retry-After), on the server's clock. ARGV: next key, seconds.
 */
export const pauseHost = `
local t = redis.call('TIME')
local until_ = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) + tonumber(ARGV[2]) * 1000
local nxt = tonumber(redis.call('GET', ARGV[1]) or '0')
if until_ > nxt then redis.call('SET', ARGV[1], tostring(until_), 'PX', tonumber(ARGV[2]) * 1000 + 60000) end
return 1
`
