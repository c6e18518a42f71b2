-- POST /v1/query bodies read from a file (one JSON body per line, as
-- bench/admission_bench --workload writes them: {"sql":"...","database":"..."}),
-- cycling through all of them; each wrk thread starts at a different place.
--   QG_BODIES  the file
--   QG_UNIQUE  "1" (default): prefix every statement with a comment holding a
--              running number, so no two requests carry the same text and a
--              cache keyed by the exact text never hits; "0": send as read
-- No response() hook (it would cost more than a short statement); wrk reports
-- non-2xx counts.
local bodies = {}
for line in io.lines(os.getenv("QG_BODIES")) do
  if #line > 0 then bodies[#bodies + 1] = line end
end
local unique = (os.getenv("QG_UNIQUE") or "1") ~= "0"
local headers = { ["Content-Type"] = "application/json" }
local prefix = '{"sql":"'
local i, n = 0, 0

function setup(thread)
  thread:set("start", math.random(#bodies))
end

function init(args)
  i = (start or 1) - 1
  n = (start or 1) * 1000003
end

function request()
  i = i % #bodies + 1
  local body = bodies[i]
  if unique and body:sub(1, #prefix) == prefix then
    n = n + 1
    body = prefix .. "/* " .. n .. " */ " .. body:sub(#prefix + 1)
  end
  return wrk.format("POST", nil, headers, body)
end
