#!lua
-- slugd's reservations: one script, three operations, each one atomic step
-- on one server or one cluster slot. Rust never computes a key of its own:
-- the key layout is defined here, once (see src/reserve/mod.rs).
--
-- KEYS[1]  the scope's key prefix, `{p}r:{<scope>}:` (its hash tag puts
--          every key of the scope in one cluster slot)
-- ARGV[1]  the operation: reserve, lookup or release
--
-- A scope's data is spread over 65,536 hashes, `KEYS[1] .. <bucket>`, the
-- bucket being the first 4 hex digits of the SHA-1 of the field (a hint,
-- of its base's field). With at most about 128 short fields per bucket,
-- every bucket stays a compact listpack (Redis's stock
-- hash-max-listpack-entries and -value). Fields:
--   <slug>     -> owner           (slug characters only: [A-Za-z0-9._~-])
--   =<owner>   -> the owner's slugs, oldest first, current last, separated
--                 by spaces; each `slug` when it is the base slug it was
--                 reserved for, `slug/n` when that base is its first n
--                 bytes (a numbered slug), else `slug:base` (a stem cut
--                 shorter for max_length); followed by `!r` when rule
--                 version r (2 or later) made the base, none for rules 1,
--                 so a record written with rules 1 is what slugd wrote
--                 before rule versions existed
--   #<base>    -> the last suffix number handed out for base (a hint where
--                 to start looking, so a popular title costs no long search),
--                 in the bucket of <base>, so one HMGET reads both
-- `=`, `#`, `/`, `:`, `!` and spaces never occur in a slug, so no field is
-- mistaken for another.
--
-- Every operation reads first and writes last; the writes are HSET/HDEL on
-- hashes only this script writes, so a script that fails fails before it
-- has written anything. The `#!lua` line (no allow-oom flag) makes Redis
-- refuse the whole script up front when it is out of memory, rather than a
-- write half-way.

local MAX_PROBES = 10000

local prefix = KEYS[1]
local op = ARGV[1]

local keys = {}
local function key(field)
  local k = keys[field]
  if not k then
    k = prefix .. string.sub(redis.sha1hex(field), 1, 4)
    keys[field] = k
  end
  return k
end

-- The entries of an owner's record: {slug, base, rules} triples, oldest
-- first.
local function entries(record)
  local out = {}
  for entry in string.gmatch(record, '%S+') do
    local rules = '1'
    local bang = string.find(entry, '!', 1, true)
    if bang then
      rules = string.sub(entry, bang + 1)
      entry = string.sub(entry, 1, bang - 1)
    end
    local slash = string.find(entry, '/', 1, true)
    local colon = string.find(entry, ':', 1, true)
    if slash then
      local slug = string.sub(entry, 1, slash - 1)
      out[#out + 1] = {slug, string.sub(slug, 1, tonumber(string.sub(entry, slash + 1))), rules}
    elseif colon then
      out[#out + 1] = {string.sub(entry, 1, colon - 1), string.sub(entry, colon + 1), rules}
    else
      out[#out + 1] = {entry, entry, rules}
    end
  end
  return out
end

local function format(list)
  local parts = {}
  for i, e in ipairs(list) do
    local part
    if e[1] == e[2] then
      part = e[1]
    elseif string.sub(e[1], 1, #e[2]) == e[2] then
      part = e[1] .. '/' .. #e[2]
    else
      part = e[1] .. ':' .. e[2]
    end
    if e[3] ~= '1' then part = part .. '!' .. e[3] end
    parts[i] = part
  end
  return table.concat(parts, ' ')
end

if op == 'reserve' then
  -- ARGV: owner, base, separator, skips (",n,m," suffix numbers that are
  -- reserved words; 1 stands for the base itself), the rule version that
  -- made the base, K, then the stem for suffixes of 1..K digits ("" when
  -- none fits max_length). K = "*": no max_length, every stem is the base.
  -- Returns {held or new, slug, the rule version that made its base}.
  local owner, base, sep, skips, rules, k = ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6], ARGV[7]
  local ofield = '=' .. owner
  local okey = key(ofield)
  local record = redis.call('HGET', okey, ofield)
  local list = {}
  if record then
    list = entries(record)
    -- The owner asked for this base before: its slug, made current.
    for i, e in ipairs(list) do
      if e[2] == base then
        if i ~= #list then
          table.remove(list, i)
          list[#list + 1] = e
          redis.call('HSET', okey, ofield, format(list))
        end
        return {'held', e[1], e[3]}
      end
    end
  end
  local function skipped(n)
    return string.find(skips, ',' .. n .. ',', 1, true) ~= nil
  end
  local function free(slug)
    return redis.call('HEXISTS', key(slug), slug) == 0
  end
  local chosen, hint
  local hkey, hfield = key(base), '#' .. base
  local seen = redis.call('HMGET', hkey, base, hfield)
  if not skipped(1) and not seen[1] then
    chosen = base
  else
    local n = (tonumber(seen[2]) or 1) + 1
    for _ = 1, MAX_PROBES do
      if not skipped(n) then
        local stem = base
        if k ~= '*' then
          local digits = string.len(tostring(n))
          if digits > tonumber(k) then return {'need', tostring(digits)} end
          stem = ARGV[7 + digits]
          if stem == '' then return {'full', tostring(n)} end
        end
        local candidate = stem .. sep .. n
        if free(candidate) then
          chosen = candidate
          break
        end
      end
      n = n + 1
    end
    if not chosen then return {'full', tostring(n)} end
    hint = {hkey, hfield, n}
  end
  -- The writes, all at the end.
  if hint then redis.call('HSET', hint[1], hint[2], hint[3]) end
  redis.call('HSET', key(chosen), chosen, owner)
  list[#list + 1] = {chosen, base, rules}
  redis.call('HSET', okey, ofield, format(list))
  return {'new', chosen, rules}
elseif op == 'lookup' then
  -- ARGV: slug. Returns {owner, current slug, the rule version that made
  -- the slug's base}, or {} when nobody holds it.
  local slug = ARGV[2]
  local owner = redis.call('HGET', key(slug), slug)
  if not owner then return {} end
  local ofield = '=' .. owner
  local list = entries(redis.call('HGET', key(ofield), ofield) or '')
  local current, rules = slug, '1'
  if #list > 0 then current = list[#list][1] end
  for _, e in ipairs(list) do
    if e[1] == slug then rules = e[3] end
  end
  return {owner, current, rules}
elseif op == 'release' then
  -- ARGV: owner. Frees every slug of the owner; returns how many.
  local ofield = '=' .. ARGV[2]
  local okey = key(ofield)
  local record = redis.call('HGET', okey, ofield)
  if not record then return 0 end
  local list = entries(record)
  local freed = {}
  for _, e in ipairs(list) do
    local skey = key(e[1])
    if redis.call('HGET', skey, e[1]) == ARGV[2] then freed[#freed + 1] = {skey, e[1]} end
  end
  for _, f in ipairs(freed) do redis.call('HDEL', f[1], f[2]) end
  redis.call('HDEL', okey, ofield)
  return #list
end
return redis.error_reply('ERR unknown reservations operation ' .. tostring(op))
