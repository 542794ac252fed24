-- wrk script: POST /reservations, each request a new owner, titles of
-- data/corpus.txt in turn (or only its first $TITLES). Env: CORPUS (file),
-- TITLES (how many titles to cycle through, default all), SCOPE (default
-- bench), OWNER (owner prefix, so that several wrk runs never share an
-- owner). One wrk thread (-t1): every connection shares the counter.
local path = os.getenv("CORPUS") or "data/corpus.txt"
local limit = tonumber(os.getenv("TITLES") or "0")
local scope = os.getenv("SCOPE") or "bench"
local prefix = os.getenv("OWNER") or "o"
local titles = {}
for line in io.lines(path) do
  if line:match("%S") and not line:match("^#") and (limit == 0 or #titles < limit) then
    titles[#titles + 1] = line:gsub("\\", "\\\\"):gsub('"', '\\"')
  end
end
local i = 0

request = function()
  i = i + 1
  local body = '{"scope": "' .. scope .. '", "owner": "' .. prefix .. i
    .. '", "title": "' .. titles[(i - 1) % #titles + 1] .. '"}'
  return wrk.format("POST", "/reservations", { ["Content-Type"] = "application/json" }, body)
end
