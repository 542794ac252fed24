-- wrk script: POST /slug with the titles of data/corpus.txt in turn.
-- Usage: wrk -s scripts/wrk/corpus.lua ... (CORPUS env var names the file)
local path = os.getenv("CORPUS") or "data/corpus.txt"
local bodies = {}
for line in io.lines(path) do
  if line:match("%S") and not line:match("^#") then
    local escaped = line:gsub("\\", "\\\\"):gsub('"', '\\"')
    bodies[#bodies + 1] = '{"title": "' .. escaped .. '"}'
  end
end
local i = 0

request = function()
  i = i % #bodies + 1
  return wrk.format("POST", "/slug", { ["Content-Type"] = "application/json" }, bodies[i])
end
