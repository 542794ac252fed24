#!lua name=slugd_reservations_4
-- slugd's reservations: a library of Redis Functions, each operation one
-- atomic step on one server or one cluster slot. Rust never
-- computes a key of its own: the key layout is defined here, once (see
-- src/reserve/mod.rs). The library is loaded once per server (FUNCTION
-- LOAD), and kept with the data (RDB, AOF); its helpers are made once at
-- load, not at every call as a script's are. Its name and its functions'
-- carry a number, raised whenever its arguments, answers or stored data
-- change, so that two releases of slugd sharing one Redis each call their
-- own. Library 2 added holds; it reads everything library 1 wrote as it
-- is (a slug's owner, an owner's record), so nothing is migrated.
-- Library 3 stores and answers what library 2 does, and makes every
-- reservation write (see "Replicas" below), so it has a number of its own:
-- a Redis that has library 2 from an older slugd gets library 3 beside it.
-- Library 4 adds the claim of an exact slug (an editor's own, or a line of
-- an import), dry runs, an owner's history and the export, and gives an
-- owner who already holds a title's base slug exactly that slug back; it
-- reads everything library 3 wrote as it is.
--
-- Replicas. A client that asks for N replicas sends WAIT after the call,
-- on the same connection; WAIT counts the replicas that have the
-- replication stream up to that connection's last write. Since Redis 7.2
-- (and in Valkey) that point moves only when a command of the connection
-- reaches the stream, and a call that writes nothing leaves it where it
-- was (0 on a new connection: any replica counts, even a stopped one). A
-- retry finds its slug already the owner's and had nothing to write, so
-- its WAIT said nothing of the first write, made on another connection.
-- A reservation that would write nothing therefore writes the owner's
-- record again as it is: the stream then has the call after the first
-- write, and the WAIT counts replicas that have both.
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
--   <slug>     (what slugd makes: [A-Za-z0-9._~-] and letters; an
--              imported slug may have other characters, but never
--              whitespace, control characters or / ? # : ! @ =)
--              -> its owner, when confirmed (a reservation as library 1
--                 made every one); for a hold, the byte 0xFF (which UTF-8
--                 text, and so an owner, never has), the time it lapses
--                 in Unix milliseconds, a space, the owner
--   =<owner>   -> the owner's slugs, oldest first, current last, separated
--                 by spaces; each `slug` when it is the base slug it was
--                 reserved for, `slug/n` when that base is its first n
--                 bytes (a numbered slug), else `slug:base` (a stem cut
--                 shorter for max_length); followed by `!r` when rule
--                 version r (2 or later) made the base, none for rules 1,
--                 so a record written with rules 1 is what slugd wrote
--                 before rule versions existed; then `@` when the slug
--                 was a hold when last written (its field says until when,
--                 and whether it is still the owner's)
--   !case      -> "insensitive" in a scope that compares slugs without
--                 regard to ASCII case: every slug's field (and hint) is
--                 then named by the slug in lowercase, so `My-Post` and
--                 `my-post` are one slug; "sensitive" otherwise. Made once,
--                 by `case` or by the scope's first write, then fixed
--   #<base>    -> the last suffix number handed out for base (a hint where
--                 to start looking, so a popular title costs no long search),
--                 in the bucket of <base>, so one HMGET reads both
-- `=`, `#`, `/`, `:`, `!`, `@` and spaces never occur in a slug, so no
-- field is mistaken for another. Every call reads `!case` first.
--
-- Holds. A hold is the owner's until it lapses, then free: a lapsed hold
-- counts as no owner at all, for a look-up and for a reservation, which
-- takes the slug by overwriting its field. Nothing runs when a hold
-- lapses: the time is read from the server (TIME) when a hold is judged,
-- so lapsing is atomic with every operation by construction. The owner's
-- record still lists a hold it has lost; its next reservation drops the
-- entry (the slug's field is the truth), and frees its own lapsed holds
-- of other bases. A confirmed slug is never overwritten.
--
-- Every operation reads first and writes last (a claim of several slugs,
-- an import's batch, does so slug by slug: a read refused half-way leaves
-- the slugs before it claimed, and the batch sent again finds them the
-- owners' already); the writes are HSET, HSETNX
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

-- How far past a base's hint a claimed slug's number may be and still
-- move the hint on to it.
local NEAR = 100

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

-- The server's time in Unix milliseconds.
local function now()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

-- A slug field's value: the owner, and the time the hold lapses (nil when
-- confirmed, or when the field is absent).
local function holder(value)
  if value and string.byte(value, 1) == 255 then
    local space = string.find(value, ' ', 2, true)
    return string.sub(value, space + 1), tonumber(string.sub(value, 2, space - 1))
  end
  return value, nil
end

-- The value of a slug field for `owner`: a hold until `till`, or (nil)
-- confirmed.
local function value_of(owner, till)
  if till then return '\255' .. string.format('%d', till) .. ' ' .. owner end
  return owner
end

-- The entries of an owner's record: {slug, base, rules, hold} tuples,
-- oldest first (hold: true when marked `@`).
local function entries(record)
  local out = {}
  for entry in string.gmatch(record, '%S+') do
    local hold = false
    if string.sub(entry, -1) == '@' then
      hold = true
      entry = string.sub(entry, 1, -2)
    end
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
      out[#out + 1] = {slug, string.sub(slug, 1, tonumber(string.sub(entry, slash + 1))), rules, hold}
    elseif colon then
      out[#out + 1] = {string.sub(entry, 1, colon - 1), string.sub(entry, colon + 1), rules, hold}
    else
      out[#out + 1] = {entry, entry, rules, hold}
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
    if e[4] then part = part .. '@' end
    parts[i] = part
  end
  return table.concat(parts, ' ')
end

-- The state of one call, reset at its start (a function runs alone, so
-- plain locals of the library serve, and no closure is made per call).
local clock_ms  -- the server's time, read once when first needed
local lapsed    -- how many lapsed holds the call freed
local dropping  -- the owner's lapsed holds of other bases, freed at the end: slug -> bucket
local dry       -- a dry run: everything read and judged, nothing written
local fold      -- the scope compares slugs without regard to ASCII case
local made      -- the scope's case setting is stored (fixed)
local wrote     -- the call wrote to the scope

-- The field of the setting that makes a scope compare slugs without
-- regard to ASCII case ("insensitive"), in its own bucket.
local CASE = '!case'

-- The field name of `slug`: the slug, or in a scope that compares slugs
-- without regard to case, the slug in lowercase (ASCII letters only). An
-- owner's record keeps each slug as it was written.
local function fk(slug)
  if fold then return string.lower(slug) end
  return slug
end

local function clock()
  if not clock_ms then clock_ms = now() end
  return clock_ms
end

-- Whether `slug`'s field, as read, is free to take: absent, or a hold
-- that has lapsed (one of this owner's being freed already).
local function free(slug, value)
  if not value or (dropping and dropping[fk(slug)]) then return true end
  if string.byte(value, 1) ~= 255 then return false end
  local _, lapse = holder(value)
  if lapse > clock() then return false end
  lapsed = lapsed + 1
  return true
end

-- The claim: `slug` is the owner's (`mine`) if nobody holds it. It is
-- the first write, so a read refused before it has written nothing. A
-- dry run only reads whether it is free.
local function claim(prefix, slug, mine)
  local field = fk(slug)
  local skey = key(prefix, field)
  if dry then return free(slug, read('HGET', skey, field)) end
  if read('HSETNX', skey, field, mine) == 1 then return true end
  if free(slug, redis.call('HGET', skey, field)) then
    redis.call('HSET', skey, field, mine)
    return true
  end
  return false
end

-- The owner's record, as read, with its holds judged by their slugs'
-- fields: one lost to another owner (or released) leaves it; one lapsed,
-- of another base than `base`, is freed. Returns the entries, and whether
-- the record must be written again.
local function judged(prefix, owner, base, record)
  local list = entries(record)
  local dirty = false
  local kept = {}
  for _, e in ipairs(list) do
    if e[4] then
      local field = fk(e[1])
      local skey = key(prefix, field)
      local who, till = holder(read('HGET', skey, field))
      if who ~= owner then
        dirty = true
      elseif not till then
        e[4] = false
        dirty = true
        kept[#kept + 1] = e
      elseif till <= clock() and fk(e[2]) ~= fk(base) then
        dropping = dropping or {}
        dropping[field] = skey
        lapsed = lapsed + 1
        dirty = true
      else
        -- A lapsed hold of this base is kept: the owner may take it again.
        e[5] = till <= clock()
        kept[#kept + 1] = e
      end
    else
      kept[#kept + 1] = e
    end
  end
  return kept, dirty
end

-- The writes a reservation ends with: the owner's lapsed holds freed,
-- and the record (`text`, or none left) when it changed.
local function finish(okey, ofield, text, reply)
  if dry then
    text = nil
  elseif dropping then
    for slug, skey in pairs(dropping) do redis.call('HDEL', skey, slug) end
  end
  if dry then
    -- Nothing written.
  elseif text == '' then
    redis.call('HDEL', okey, ofield)
  elseif text then
    redis.call('HSET', okey, ofield, text)
  end
  -- Three fields when no hold was made, judged or freed (the usual
  -- reply, cheaper to send and read); else all six.
  if reply[4] ~= '' or reply[5] ~= '' or lapsed > 0 then
    reply[6] = string.format('%d', lapsed)
  else
    reply[4], reply[5] = nil, nil
  end
  return reply
end

-- argv: the call's arguments, argv[1] the scope's prefix.
local function reserve(argv)
  -- argv: owner, base, separator, skips (",n,m," suffix numbers that are
  -- reserved words; 1 stands for the base itself), the rule version that
  -- made the base, the hold's length in seconds (0: no hold; a hold the
  -- owner has for this base is confirmed), "1" for a dry run (what it
  -- would answer, nothing written) or "0", K, then the stem for suffixes
  -- of 1..K digits ("" when none fits max_length). K = "*": no
  -- max_length, every stem is the base.
  -- Returns {held or new, slug, the rule version that made its base},
  -- followed, when a hold was made, renewed, confirmed or freed, by the
  -- time its hold lapses ("" when confirmed), what this did to a hold
  -- (made, renewed, confirmed or "") and how many lapsed holds it freed.
  clock_ms, lapsed, dropping = nil, 0, nil
  local prefix = argv[1]
  local owner, base, sep, skips, rules, k = argv[2], argv[3], argv[4], argv[5], argv[6], argv[9]
  dry = argv[8] == '1'
  local hold = tonumber(argv[7]) or 0
  local ofield = '=' .. owner
  local okey = key(prefix, ofield)
  local record = read('HGET', okey, ofield)
  local list, dirty
  if record then
    list, dirty = judged(prefix, owner, base, record)
    -- The owner asked for this base before, or holds the base itself (a
    -- slug imported or typed by an editor): that slug, made current; a
    -- hold renewed, or confirmed.
    -- Newest first: an owner with several slugs of a base (imported, or
    -- typed) gets the one it had last that it still holds, else its
    -- lapsed hold of the base.
    local found
    for pass = 1, 2 do
      for i = #list, 1, -1 do
        local e = list[i]
        if not found and (pass == 2 or not e[5])
            and (fk(e[2]) == fk(base) or fk(e[1]) == fk(base)) then
          found = i
        end
      end
    end
    for i, e in ipairs(list) do
      if i == found then
        local event, till = '', nil
        if e[4] and hold > 0 then
          event, till = 'renewed', clock() + hold * 1000
        elseif e[4] then
          event = 'confirmed'
          e[4] = false
          dirty = true
        end
        if i ~= #list then
          table.remove(list, i)
          list[#list + 1] = e
          dirty = true
        end
        local reply = {'held', e[1], e[3], '', event}
        wrote = not dry
        if event ~= '' then
          if not dry then redis.call('HSET', key(prefix, fk(e[1])), fk(e[1]), value_of(owner, till)) end
          if till then reply[4] = string.format('%d', till) end
        end
        local text = dirty and format(list)
        if event == '' and not text and not dropping then
          -- Nothing changed: the record written again as it is (see
          -- "Replicas" above).
          text = record
        end
        return finish(okey, ofield, text, reply)
      end
    end
  end
  local till = nil
  if hold > 0 then till = clock() + hold * 1000 end
  local mine = value_of(owner, till)
  local none_skipped = skips == ','
  local chosen, hint
  local hkey, hfield = key(prefix, fk(base)), '#' .. fk(base)
  local seen = read('HMGET', hkey, fk(base), hfield)
  if (none_skipped or not string.find(skips, ',1,', 1, true)) and free(base, seen[1]) then
    chosen = base
  else
    local n = (tonumber(seen[2]) or 1) + 1
    for _ = 1, MAX_PROBES do
      local ns = string.format('%d', n)
      if none_skipped or not string.find(skips, ',' .. ns .. ',', 1, true) then
        local stem = base
        if k ~= '*' then
          local digits = string.len(ns)
          if digits > tonumber(k) then return {'need', string.format('%d', digits)} end
          stem = argv[9 + digits]
          if stem == '' then return {'full', ns} end
        end
        local candidate = stem .. sep .. ns
        if claim(prefix, candidate, mine) then
          chosen = candidate
          hint = ns
          break
        end
      end
      n = n + 1
    end
    if not chosen then return {'full', string.format('%d', n)} end
  end
  -- The other writes, all at the end (a numbered slug was claimed above).
  wrote = not dry
  if dry then
    -- Nothing written.
  elseif hint then
    redis.call('HSET', hkey, hfield, hint)
  else
    redis.call('HSET', hkey, fk(chosen), mine)
  end
  -- The slug taken is not freed at the end, even if it was this owner's
  -- lapsed hold of another base (whose entry has left the record).
  if dropping then dropping[fk(chosen)] = nil end
  local entry = {chosen, base, rules, till ~= nil}
  local text
  if not record then
    text = format({entry})
  elseif dirty then
    list[#list + 1] = entry
    text = format(list)
  else
    text = record .. ' ' .. format({entry})
  end
  local reply = {'new', chosen, rules, '', ''}
  if till then
    reply[4], reply[5] = string.format('%d', till), 'made'
  end
  return finish(okey, ofield, text, reply)
end

local function lookup(argv)
  -- argv: slug. Returns {owner, current slug, the rule version that made
  -- the slug's base, the time its hold lapses ("" when confirmed)}, or {}
  -- when nobody holds it (or its hold has lapsed). The current slug is
  -- the owner's newest confirmed one, or, when it has none, the slug
  -- looked up.
  local prefix, slug = argv[1], argv[2]
  local owner, till = holder(read('HGET', key(prefix, fk(slug)), fk(slug)))
  if not owner then return {} end
  if till and till <= now() then return {} end
  local ofield = '=' .. owner
  local list = entries(read('HGET', key(prefix, ofield), ofield) or '')
  local current, rules = slug, '1'
  for _, e in ipairs(list) do
    if fk(e[1]) == fk(slug) then rules, slug = e[3], e[1] end
  end
  current = slug
  for _, e in ipairs(list) do
    if not e[4] then current = e[1] end
  end
  return {owner, current, rules, till and string.format('%d', till) or ''}
end

local function release(argv)
  -- argv: owner. Frees every slug of the owner; returns how many it held
  -- (a lapsed hold, freed too, is not counted: it was nobody's already).
  clock_ms = nil
  local prefix = argv[1]
  local ofield = '=' .. argv[2]
  local okey = key(prefix, ofield)
  local record = read('HGET', okey, ofield)
  if not record then return 0 end
  local freed, held = {}, 0
  for _, e in ipairs(entries(record)) do
    local field = fk(e[1])
    local skey = key(prefix, field)
    local who, till = holder(read('HGET', skey, field))
    if who == argv[2] then
      freed[#freed + 1] = {skey, field}
      if not till or till > clock() then held = held + 1 end
    end
  end
  for _, f in ipairs(freed) do redis.call('HDEL', f[1], f[2]) end
  redis.call('HDEL', okey, ofield)
  return held
end

-- The claim of one exact slug for an owner (an editor's own slug, or a
-- line of an import), with `base` (the slug without its number, or the
-- slug) and `n` (that number, or "") for the number hint, the rule
-- version, and the hold: "" none, "+N" for N seconds from now, "N" until
-- N (Unix milliseconds); with `only_owned`, only if the owner holds it
-- already (else "taken", its holder "" when nobody). Answers {"new" |
-- "held", slug, lapse time or "",
-- what it did to a hold, the rule version kept with it} when the slug is
-- (or already was) the owner's, and {"taken", its holder, lapse time or
-- "", "", ""} when another owner holds it, with nothing written.
local function claim_one(prefix, owner, slug, base, n, rules, hold, only_owned)
  lapsed, dropping = 0, nil
  local want = nil
  if hold ~= '' then
    if string.sub(hold, 1, 1) == '+' then
      want = clock() + tonumber(string.sub(hold, 2)) * 1000
    else
      want = tonumber(hold)
    end
  end
  local ofield = '=' .. owner
  local okey = key(prefix, ofield)
  local record = read('HGET', okey, ofield)
  local hkey, hfield, hint
  if n ~= '' then
    hkey, hfield = key(prefix, fk(base)), '#' .. fk(base)
    hint = read('HGET', hkey, hfield)
  end
  local list = {}
  if record then list = judged(prefix, owner, base, record) end
  -- A slug nobody has is taken at once (the usual line of an import): the
  -- first write, after every read but the slug's own.
  local field = fk(slug)
  local skey = key(prefix, field)
  local value
  if not dry and not only_owned and read('HSETNX', skey, field, value_of(owner, want)) == 1 then
    value = false
  else
    value = read('HGET', skey, field)
  end
  local status, event, entry = 'new', '', nil
  local who, till
  if value == false then
    -- Written above.
    till = want
    if till then event = 'made' end
  else
    who, till = holder(value)
  end
  if value == false then
    entry = {slug, base, rules, till ~= nil}
  elseif value and who == owner and (not till or till > clock()) and not (dropping and dropping[field]) then
    -- Already the owner's: made current, its hold renewed to the new
    -- time, or confirmed; a confirmed slug stays confirmed.
    status = 'held'
    for i, e in ipairs(list) do
      if fk(e[1]) == field then
        entry = table.remove(list, i)
        break
      end
    end
    entry = entry or {slug, base, rules, false}
    if till and want then
      if want ~= till then event = 'renewed' end
      till = want
    elseif till then
      event, till = 'confirmed', nil
    end
    entry[4] = till ~= nil
  elseif not only_owned and free(slug, value) then
    till = want
    if till then event = 'made' end
    for i, e in ipairs(list) do
      if fk(e[1]) == field then
        table.remove(list, i)
        break
      end
    end
    entry = {slug, base, rules, till ~= nil}
  else
    return {'taken', who or '', till and string.format('%d', till) or '', '', ''}
  end
  if not dry then
    wrote = true
    if value ~= false and (status == 'new' or event ~= '') then
      redis.call('HSET', skey, field, value_of(owner, till))
    end
    -- The hint goes on to the slug's number when that is near it: a number
    -- far ahead (a date, an id: `news-20240101`) is no suffix, and would
    -- send every later title of the base past it.
    local number, last = tonumber(n), tonumber(hint) or 1
    if n ~= '' and number > last and number <= last + NEAR then redis.call('HSET', hkey, hfield, n) end
    if dropping then
      dropping[field] = nil
      for f, k in pairs(dropping) do redis.call('HDEL', k, f) end
    end
    list[#list + 1] = entry
    -- Written even when nothing changed (see "Replicas" above).
    redis.call('HSET', okey, ofield, format(list))
  end
  return {status, entry[1], till and string.format('%d', till) or '', event, entry[3]}
end

local function claim_exact(argv)
  -- argv: "1" for a dry run (nothing written) or "0", then, for each slug
  -- claimed in turn, seven arguments: owner, slug, base, n, rules, hold
  -- (see `claim_one`), and "1" when the slug is claimed only if it is
  -- the owner's already (a reserved word), else "0". Answers five fields
  -- a slug (see `claim_one`).
  clock_ms = nil
  local prefix = argv[1]
  dry = argv[2] == '1'
  local out = {}
  for i = 3, #argv - 6, 7 do
    local reply = claim_one(prefix, argv[i], argv[i + 1], argv[i + 2], argv[i + 3], argv[i + 4], argv[i + 5], argv[i + 6] == '1')
    for _, v in ipairs(reply) do out[#out + 1] = v end
  end
  return out
end

-- The entries of `owner`'s record that are still the owner's (a hold
-- lost to another owner, or lapsed, is not), as five fields each: owner,
-- slug, base, rule version, lapse time ("" when confirmed); appended to
-- `out`.
local function still_held(prefix, owner, record, out)
  for _, e in ipairs(entries(record)) do
    local keep = true
    if e[4] then
      local who, till = holder(read('HGET', key(prefix, fk(e[1])), fk(e[1])))
      keep = who == owner and (not till or till > clock())
      if keep then e[5] = till and string.format('%d', till) or '' end
    end
    if keep then
      out[#out + 1] = owner
      out[#out + 1] = e[1]
      out[#out + 1] = e[2]
      out[#out + 1] = e[3]
      out[#out + 1] = e[5] or ''
    end
  end
  return out
end

local function history(argv)
  -- argv: owner. Answers the owner's slugs, oldest first, five fields
  -- each (see `still_held`).
  clock_ms = nil
  local prefix, owner = argv[1], argv[2]
  local ofield = '=' .. owner
  local record = read('HGET', key(prefix, ofield), ofield)
  if not record then return {} end
  return still_held(prefix, owner, record, {})
end

local function export(argv)
  -- argv: the first bucket and the bucket after the last (numbers from 0
  -- to 65,536). Answers the slugs of the owners whose records are in
  -- those buckets, five fields each (see `still_held`).
  clock_ms = nil
  local prefix = argv[1]
  local out = {}
  for b = tonumber(argv[2]), tonumber(argv[3]) - 1 do
    local fields = read('HGETALL', prefix .. string.format('%04x', b))
    for i = 1, #fields, 2 do
      if string.byte(fields[i], 1) == 61 then -- '='
        still_held(prefix, string.sub(fields[i], 2), fields[i + 1], out)
      end
    end
  end
  return out
end

local function case(argv)
  -- argv: "insensitive" or "sensitive": how the scope compares slugs. The
  -- setting is made once, by this call or by the scope's first write, and
  -- then fixed. Answers {"ok" | "has_keys", the setting after the call}.
  local prefix, wanted = argv[1], argv[2]
  local setting = fold and 'insensitive' or 'sensitive'
  if made then
    if wanted == setting then return {'ok', setting} end
    return {'has_keys', setting}
  end
  local ckey = key(prefix, CASE)
  if wanted == 'insensitive' then
    -- A scope written before the setting existed (slugd before this
    -- library) has keys and no setting: it stays case by case.
    for b = 0, 65535 do
      if #read('HGETALL', prefix .. string.format('%04x', b)) > 0 then
        redis.call('HSET', ckey, CASE, 'sensitive')
        return {'has_keys', 'sensitive'}
      end
    end
  end
  redis.call('HSET', ckey, CASE, wanted)
  return {'ok', wanted}
end

local writes

-- `operation` run on a call's arguments: its answer, or, when a read was
-- refused, MOVED or TRYAGAIN with nothing changed.
-- The scope's setting read, the operation run, and, after a write to a
-- scope whose setting was never made, the setting made (case by case):
-- from then on it is fixed, and `case` need not look for keys.
local function with_setting(operation, args)
  local setting = read('HGET', key(args[1], CASE), CASE)
  fold, made, dry, wrote = setting == 'insensitive', setting and true or false, false, false
  local reply = operation(args)
  if writes[operation] and not made and wrote then
    redis.call('HSET', key(args[1], CASE), CASE, 'sensitive')
  end
  return reply
end

local function called(operation)
  return function(_, args)
    local done, reply = pcall(with_setting, operation, args)
    if done then return reply end
    if reply == NOT_HERE then return not_here(args[1]) end
    error(reply)
  end
end

-- The operations whose first write to a scope makes its case setting.
writes = {[reserve] = true, [claim_exact] = true}

redis.register_function{function_name = 'slugd_reserve_4', callback = called(reserve)}
redis.register_function{function_name = 'slugd_release_4', callback = called(release)}
redis.register_function{function_name = 'slugd_claim_4', callback = called(claim_exact)}
redis.register_function{function_name = 'slugd_case_4', callback = called(case)}
redis.register_function{
  function_name = 'slugd_lookup_4', callback = called(lookup), flags = {'no-writes'}
}
redis.register_function{
  function_name = 'slugd_history_4', callback = called(history), flags = {'no-writes'}
}
redis.register_function{
  function_name = 'slugd_export_4', callback = called(export), flags = {'no-writes'}
}
