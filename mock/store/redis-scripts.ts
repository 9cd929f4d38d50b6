/**
 * The Lua scripts of the Redis record store (mock/store/redis-store.ts): each store operation is one script, so
 * one round trip, and atomic, so that replicas sharing the store never see half a change.
 *
 * Keys of one resource in one namespace, below `base` (`<prefix>:<resource>:`, see redis-store.ts):
 * - `rec`: hash id → the record's JSON text (ids as decimal text for integers: int64 exact, never a double);
 * - `order`: sorted set of ids, scored by creation sequence (`ord`), so lists are newest first;
 * - `idx:<property>:<key>`: per value of an indexed filter (enum, boolean), the ids holding it, same scores:
 *   a filtered page is one `ZREVRANGE`, O(log n + limit);
 * - `col:<property>`: hash id → filter key, for the other filters (a walk checks them);
 * - `seq`: the last integer id given (`INCR`: replicas never collide), `ord`: the last creation sequence;
 * - `meta`: hash of who wrote the namespace (spec title, version, fingerprint): its presence marks the
 *   resource as initialised, so a replica never loads starting data over records another one holds.
 *
 * Filter descriptors travel in ARGV as `count` then, per filter, `property`, `kind` (`i` indexed, `c` column),
 * the record's key (`''` when absent), the number of indexed values and those values (keys as
 * redis-store.ts `encodeKey` writes them). Integers that Redis hands to Lua are read back as text (`GET`),
 * because Lua numbers are doubles.
 */

/** Shared Lua helpers: reading filter descriptors and writing or removing one record's index entries. */
const HELPERS = `
local function descriptors(at)
  local count = tonumber(ARGV[at]); at = at + 1
  local list = {}
  for i = 1, count do
    local d = { prop = ARGV[at], kind = ARGV[at + 1], key = ARGV[at + 2], values = {} }
    local n = tonumber(ARGV[at + 3]); at = at + 4
    for j = 1, n do d.values[j] = ARGV[at]; at = at + 1 end
    list[i] = d
  end
  return list, at
end
local function unindex(base, filters, id)
  for _, d in ipairs(filters) do
    if d.kind == 'i' then
      for _, v in ipairs(d.values) do redis.call('ZREM', base .. 'idx:' .. d.prop .. ':' .. v, id) end
    else
      redis.call('HDEL', base .. 'col:' .. d.prop, id)
    end
  end
end
local function index(base, filters, keys, id, score)
  for i, d in ipairs(filters) do
    local key = keys[i]
    if key ~= '' then
      if d.kind == 'i' then redis.call('ZADD', base .. 'idx:' .. d.prop .. ':' .. key, score, id)
      else redis.call('HSET', base .. 'col:' .. d.prop, id, key) end
    end
  end
end
local function keysOf(filters)
  local keys = {}
  for i, d in ipairs(filters) do keys[i] = d.key end
  return keys
end
`;

/**
 * create: ARGV `base, maxRecords, idKind ('int' | 'text' | 'given' | 'client'), givenId, idName (JSON text), rest
 * (the record's JSON text without its id), givenText (the given id's JSON text), filters…`. `int` and `text` count
 * up past ids held; `given` is a UUID drawn by the caller; `client` an id the client chose, which does not move
 * the counter. Returns `{'ok', id, json}`, `{'full'}`, `{'ids-exhausted'}` or `{'taken'}` (a given id already held;
 * a client's id held by a record the examples made up, its key in `<base>made`, is not: the create replaces it, D780).
 */
export const CREATE_SCRIPT = `${HELPERS}
local base = ARGV[1]
local rec = base .. 'rec'
if redis.call('HLEN', rec) >= tonumber(ARGV[2]) then return {'full'} end
local id, text
if ARGV[3] == 'int' then
  repeat
    local r = redis.pcall('INCR', base .. 'seq')
    if type(r) == 'table' and r.err then return {'ids-exhausted'} end
    id = redis.call('GET', base .. 'seq')
  until redis.call('HEXISTS', rec, id) == 0
  text = id
elseif ARGV[3] == 'text' then
  repeat
    redis.call('INCR', base .. 'seq')
    id = redis.call('GET', base .. 'seq')
  until redis.call('HEXISTS', rec, id) == 0
  text = '"' .. id .. '"'
else
  id = ARGV[4]
  if redis.call('HEXISTS', rec, id) == 1 then
    -- A record the description's examples made up yields its key to a client's create (D780); any other is taken.
    if ARGV[3] ~= 'client' or redis.call('SREM', base .. 'made', id) == 0 then return {'taken'} end
    unindex(base, descriptors(8), id)
    redis.call('ZREM', base .. 'order', id)
    redis.call('HDEL', rec, id)
  end
  text = ARGV[3] == 'client' and ARGV[7] or ('"' .. id .. '"')
end
local rest = ARGV[6]
local json = '{' .. ARGV[5] .. ':' .. text .. (rest == '{}' and '}' or (',' .. string.sub(rest, 2)))
redis.call('INCR', base .. 'ord')
local score = redis.call('GET', base .. 'ord')
redis.call('HSET', rec, id, json)
redis.call('ZADD', base .. 'order', score, id)
local filters = descriptors(8)
index(base, filters, keysOf(filters), id, score)
return {'ok', id, json}
`;

/** replace: ARGV `base, id, json, filters…` (keys of the new record). Returns 1, or 0 when no record has the id. */
export const REPLACE_SCRIPT = `${HELPERS}
local base, id = ARGV[1], ARGV[2]
local rec = base .. 'rec'
if redis.call('HEXISTS', rec, id) == 0 then return 0 end
redis.call('SREM', base .. 'made', id)
local score = redis.call('ZSCORE', base .. 'order', id)
local filters = descriptors(4)
unindex(base, filters, id)
index(base, filters, keysOf(filters), id, score)
redis.call('HSET', rec, id, ARGV[3])
return 1
`;

/** delete: ARGV `base, id, filters…`. Returns the record's last JSON text, or `false` when absent. */
export const DELETE_SCRIPT = `${HELPERS}
local base, id = ARGV[1], ARGV[2]
local rec = base .. 'rec'
local json = redis.call('HGET', rec, id)
if not json then return false end
redis.call('SREM', base .. 'made', id)
unindex(base, descriptors(3), id)
redis.call('ZREM', base .. 'order', id)
redis.call('HDEL', rec, id)
return json
`;

/**
 * list: ARGV `base, limit (-1: all), countAll ('1' | '0'), offset (matches to skip), before (a creation sequence:
 * only records below it; '' for none), withParts ('1' | '0'), filters…` (only the given ones, with the asked key).
 * The smallest index among the given indexed filters drives the walk (else the creation order); other filters
 * are checked per id (`ZSCORE` / `HGET`), newest first, in chunks. Returns `{json, total, more (1 | 0), last}`
 * with `total` as the in-memory store counts it (record-store.ts `ListPage`) and `last` the creation sequence of
 * the page's last record (`''` for none); with `withParts`, also each record's sequence and JSON text (two tables).
 */
export const LIST_SCRIPT = `${HELPERS}
local base = ARGV[1]
local limit = tonumber(ARGV[2])
local countAll = ARGV[3] == '1'
local offset = tonumber(ARGV[4])
local before = ARGV[5]
local withParts = ARGV[6] == '1'
local filters = descriptors(7)
local driver, size, driverAt = base .. 'order', nil, 0
for i, d in ipairs(filters) do
  if d.kind == 'i' then
    local n = redis.call('ZCARD', base .. 'idx:' .. d.prop .. ':' .. d.key)
    if size == nil or n < size then driver, size, driverAt = base .. 'idx:' .. d.prop .. ':' .. d.key, n, i end
  end
end
if size == nil then size = redis.call('ZCARD', driver) end
-- Ranks count newest first: the records below the position start after every record at or above it.
local from = 0
if before ~= '' then from = redis.call('ZCOUNT', driver, before, '+inf') end
local checks = {}
for i, d in ipairs(filters) do if i ~= driverAt then checks[#checks + 1] = d end end
local rec = base .. 'rec'
local parts, scores = {}, {}
if #checks == 0 then
  local first = from + offset
  local want = size - first
  if limit >= 0 and limit < want then want = limit end
  local start = 0
  while start < want do
    local stop = math.min(start + 1000, want) - 1
    local ids = redis.call('ZREVRANGE', driver, first + start, first + stop, 'WITHSCORES')
    if #ids == 0 then break end
    local page = {}
    for k = 1, #ids, 2 do page[#page + 1] = ids[k]; scores[#scores + 1] = ids[k + 1] end
    local jsons = redis.call('HMGET', rec, unpack(page))
    for _, json in ipairs(jsons) do parts[#parts + 1] = json end
    start = stop + 1
  end
  local more = (first + #parts < size) and 1 or 0
  local reply = {'[' .. table.concat(parts, ',') .. ']', size, more, scores[#scores] or ''}
  if withParts then reply[5] = scores; reply[6] = parts end
  return reply
end
local matched, rank, full, skipped, more = 0, 0, false, 0, 0
if not countAll then rank = from end
while not (full and not countAll) do
  local ids = redis.call('ZREVRANGE', driver, rank, rank + 255, 'WITHSCORES')
  if #ids == 0 then break end
  local page = {}
  for k = 1, #ids, 2 do
    local id = ids[k]
    local ok = true
    for _, d in ipairs(checks) do
      if d.kind == 'i' then ok = redis.call('ZSCORE', base .. 'idx:' .. d.prop .. ':' .. d.key, id) ~= false
      else ok = redis.call('HGET', base .. 'col:' .. d.prop, id) == d.key end
      if not ok then break end
    end
    if ok then
      matched = matched + 1
      if rank + (k - 1) / 2 >= from then
        if skipped < offset then skipped = skipped + 1
        elseif limit < 0 or #parts + #page < limit then page[#page + 1] = id; scores[#scores + 1] = ids[k + 1]
        else full = true; more = 1; if not countAll then break end end
      end
    end
  end
  if #page > 0 then
    local jsons = redis.call('HMGET', rec, unpack(page))
    for _, json in ipairs(jsons) do parts[#parts + 1] = json end
  end
  rank = rank + 256
end
local reply = {'[' .. table.concat(parts, ',') .. ']', matched, more, scores[#scores] or ''}
if withParts then reply[5] = scores; reply[6] = parts end
return reply
`;

/**
 * load: ARGV `base, mode ('init' | 'replace' | 'append'), seq (the largest numeric id loaded, decimal text, at
 * least 0), meta (JSON text), filters… (values only; keys are per record), recordCount, then per record: id,
 * json, one key per filter`.
 * - `init` writes only into a resource no replica initialised (no `meta`) and that holds no record; otherwise it
 *   returns `{0, meta found}` (`''` when records were there without meta: the meta is written, nothing loaded);
 * - `replace` drops the resource's records and indexes first, and sets the id counter to `seq` (as the in-memory
 *   store's load does);
 * - `append` adds (bulk loads in chunks).
 * The id counter never goes down except on `replace`. Returns `{1, ''}` once written.
 */
export const LOAD_SCRIPT = `${HELPERS}
local base, mode = ARGV[1], ARGV[2]
local metaKey, rec = base .. 'meta', base .. 'rec'
if mode == 'init' then
  local found = redis.call('HGET', metaKey, 'json')
  if found then return {0, found} end
  if redis.call('HLEN', rec) > 0 then
    redis.call('HSET', metaKey, 'json', ARGV[4])
    return {0, ''}
  end
end
local filters, at = descriptors(5)
if mode == 'replace' then
  local dropped = { rec, base .. 'order', base .. 'made' }
  for _, d in ipairs(filters) do
    if d.kind == 'i' then for _, v in ipairs(d.values) do dropped[#dropped + 1] = base .. 'idx:' .. d.prop .. ':' .. v end
    else dropped[#dropped + 1] = base .. 'col:' .. d.prop end
  end
  redis.call('DEL', unpack(dropped))
  redis.call('SET', base .. 'seq', ARGV[3])
else
  local current = redis.call('GET', base .. 'seq') or '0'
  local wanted = ARGV[3]
  if #wanted > #current or (#wanted == #current and wanted > current) then redis.call('SET', base .. 'seq', wanted) end
end
if mode ~= 'append' or redis.call('EXISTS', metaKey) == 0 then redis.call('HSET', metaKey, 'json', ARGV[4]) end
local count = tonumber(ARGV[at]); at = at + 1
local first = redis.call('INCRBY', base .. 'ord', count) - count
local order = base .. 'order'
for r = 1, count do
  local id, json = ARGV[at], ARGV[at + 1]
  at = at + 2
  local keys = {}
  for i = 1, #filters do keys[i] = ARGV[at]; at = at + 1 end
  local score = first + r
  redis.call('HSET', rec, id, json)
  redis.call('ZADD', order, score, id)
  index(base, filters, keys, id, score)
end
return {1, ''}
`;

/** all, a chunk: ARGV `base, start, stop` (ranks, oldest first). Returns the JSON texts of the records at those ranks. */
export const RANGE_SCRIPT = `
local base = ARGV[1]
local ids = redis.call('ZRANGE', base .. 'order', ARGV[2], ARGV[3])
if #ids == 0 then return {} end
return redis.call('HMGET', base .. 'rec', unpack(ids))
`;
