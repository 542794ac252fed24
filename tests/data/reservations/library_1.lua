#!lua name=slugd_reservations_1
-- slugd's reservations: a library of Redis Functions, three operations,
-- each one atomic step on one server or one cluster slot. Rust never
-- computes a key of its own: the key layout is defined here, once (see
-- src/reserve/mod.rs). The library is loaded once per server (FUNCTION
-- LOAD), and kept with the data (RDB, AOF); its helpers are made once at
-- load, not at every call as a script's are. Its name and its functions'
-- carry a number, raised whenever its arguments, answers or stored data
-- change, so that two releases of slugd sharing one Redis each call their
-- own.
--
-- No KEYS: a function is called with numkeys 0, to the node that holds
-- the scope's slot (see "Resharding" below for why the prefix is not a
-- KEY). Its arguments:
-- args[1]  the scope's key prefix, `{p}r:{<scope>}:` (its hash tag puts
--          every key of the scope in one cluster slot)
-- args[2..] the operation's own arguments (`argv` below, from argv[2])
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
-- Every operation reads first and writes last; the writes are HSET, HSETNX
-- and HDEL on hashes only these functions write, so a call that fails
-- fails before it has written anything: a reservation's first write, the
-- claim of a numbered slug, is an HSETNX that also reads, and every write
-- after it is to a key read before it. The functions that write have no allow-oom flag,
-- so Redis refuses the whole call up front when it is out of memory,
-- rather than a write half-way.
--
-- Resharding. While a cluster moves the scope's slot from node A to node
-- B, the scope's keys are split between them, a few at a time, and no
-- node sees the whole scope. Redis decides where a command runs by the
-- keys it declares: had the prefix (a key that never exists) been KEYS[1],
-- A would answer ASK, and B, told ASKING, would run the script on the half
-- it has, reading the owner's record or a slug's holder as absent while it
-- is still on A (a second slug for one owner, one slug for two owners). So
-- no key is declared, and every read goes through `read`: inside a script
-- Redis refuses a key this node does not hold (A: a key already moved, or
-- one that does not exist, while the slot is migrating; B: any key before
-- the slot is its own). Every key written was read first, so a refused
-- read comes before any write, and the script answers, with nothing
-- changed, MOVED to the slot's primary when this node is not it (as a
-- keyed command would), or TRYAGAIN while the slot is moving away from it;
-- the client sends it again.

local MAX_PROBES = 10000

-- Raised by `read` when Redis refuses a key as not local (cluster only).
local NOT_HERE = {}

-- A read, or NOT_HERE raised when this node does not have the key's slot
-- whole; other errors are raised as they are.
local function read(...)
  local reply = redis.pcall(...)
  if type(reply) == 'table' and reply.err then
    if string.find(reply.err, 'non local key', 1, true) then error(NOT_HERE) end
    error(reply)
  end
  return reply
end

-- The answer when a read was refused: MOVED to the primary this node says
-- holds the scope's slot, or TRYAGAIN when that is this node (the slot is
-- migrating away, and some of its keys are elsewhere already).
local function not_here(prefix)
  local slot = redis.call('CLUSTER', 'KEYSLOT', prefix)
  local me = redis.call('CLUSTER', 'MYID')
  for _, range in ipairs(redis.call('CLUSTER', 'SLOTS')) do
    local primary = range[3]
    if range[1] <= slot and slot <= range[2] and primary[3] ~= me then
      return redis.error_reply('MOVED ' .. slot .. ' ' .. primary[1] .. ':' .. primary[2])
    end
  end
  return redis.error_reply('TRYAGAIN the hash slot of this scope is moving to another node; ask again shortly')
end

-- The key of `field`'s bucket in the scope `prefix`.
local function key(prefix, field)
  return prefix .. string.sub(redis.sha1hex(field), 1, 4)
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

-- argv: the call's arguments, argv[1] the scope's prefix.
local function reserve(argv)
  -- argv: owner, base, separator, skips (",n,m," suffix numbers that are
  -- reserved words; 1 stands for the base itself), the rule version that
  -- made the base, K, then the stem for suffixes of 1..K digits ("" when
  -- none fits max_length). K = "*": no max_length, every stem is the base.
  -- Returns {held or new, slug, the rule version that made its base}.
  local prefix = argv[1]
  local owner, base, sep, skips, rules, k = argv[2], argv[3], argv[4], argv[5], argv[6], argv[7]
  local ofield = '=' .. owner
  local okey = key(prefix, ofield)
  local record = read('HGET', okey, ofield)
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
  -- The claim: the slug is the owner's if nobody holds it. It is the
  -- first write, so a read refused before it has written nothing.
  local function claim(slug)
    return read('HSETNX', key(prefix, slug), slug, owner) == 1
  end
  local chosen, hint
  local hkey, hfield = key(prefix, base), '#' .. base
  local seen = read('HMGET', hkey, base, hfield)
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
          stem = argv[7 + digits]
          if stem == '' then return {'full', tostring(n)} end
        end
        local candidate = stem .. sep .. n
        if claim(candidate) then
          chosen = candidate
          break
        end
      end
      n = n + 1
    end
    if not chosen then return {'full', tostring(n)} end
    hint = {hkey, hfield, n}
  end
  -- The other writes, all at the end (a numbered slug was claimed above).
  if hint then
    redis.call('HSET', hint[1], hint[2], hint[3])
  else
    redis.call('HSET', key(prefix, chosen), chosen, owner)
  end
  list[#list + 1] = {chosen, base, rules}
  redis.call('HSET', okey, ofield, format(list))
  return {'new', chosen, rules}
end

local function lookup(argv)
  -- argv: slug. Returns {owner, current slug, the rule version that made
  -- the slug's base}, or {} when nobody holds it.
  local prefix, slug = argv[1], argv[2]
  local owner = read('HGET', key(prefix, slug), slug)
  if not owner then return {} end
  local ofield = '=' .. owner
  local list = entries(read('HGET', key(prefix, ofield), ofield) or '')
  local current, rules = slug, '1'
  if #list > 0 then current = list[#list][1] end
  for _, e in ipairs(list) do
    if e[1] == slug then rules = e[3] end
  end
  return {owner, current, rules}
end

local function release(argv)
  -- argv: owner. Frees every slug of the owner; returns how many.
  local prefix = argv[1]
  local ofield = '=' .. argv[2]
  local okey = key(prefix, ofield)
  local record = read('HGET', okey, ofield)
  if not record then return 0 end
  local list = entries(record)
  local freed = {}
  for _, e in ipairs(list) do
    local skey = key(prefix, e[1])
    if read('HGET', skey, e[1]) == argv[2] then freed[#freed + 1] = {skey, e[1]} end
  end
  for _, f in ipairs(freed) do redis.call('HDEL', f[1], f[2]) end
  redis.call('HDEL', okey, ofield)
  return #list
end

-- `operation` run on a call's arguments: its answer, or, when a read was
-- refused, MOVED or TRYAGAIN with nothing changed.
local function called(operation)
  return function(_, args)
    local done, reply = pcall(operation, args)
    if done then return reply end
    if reply == NOT_HERE then return not_here(args[1]) end
    error(reply)
  end
end

redis.register_function{function_name = 'slugd_reserve_1', callback = called(reserve)}
redis.register_function{function_name = 'slugd_release_1', callback = called(release)}
redis.register_function{
  function_name = 'slugd_lookup_1', callback = called(lookup), flags = {'no-writes'}
}
