-- wrk script: POST /slugs with BATCH titles of data/corpus.txt a request,
-- taken in turn. Usage: BATCH=10 wrk -s scripts/wrk/batch.lua ...
local path = os.getenv("CORPUS") or "data/corpus.txt"
local size = tonumber(os.getenv("BATCH") or "10")
local titles = {}
for line in io.lines(path) do
  if line:match("%S") and not line:match("^#") then
    titles[#titles + 1] = '"' .. line:gsub("\\", "\\\\"):gsub('"', '\\"') .. '"'
  end
end
local bodies = {}
for start = 1, #titles, size do
  local batch = {}
  for j = 0, size - 1 do
    batch[#batch + 1] = titles[(start + j - 1) % #titles + 1]
  end
  bodies[#bodies + 1] = '{"titles": [' .. table.concat(batch, ",") .. ']}'
end
local i = 0

request = function()
  i = i % #bodies + 1
  return wrk.format("POST", "/slugs", { ["Content-Type"] = "application/json" }, bodies[i])
end
