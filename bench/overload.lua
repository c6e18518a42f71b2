-- Like query.lua, and counts the answers by HTTP status, so the overload run
-- can show that 200 + 429 + 504 (+ anything else) add up to the requests sent.
wrk.method = "POST"
wrk.body = os.getenv("QG_BODY")
wrk.headers["Content-Type"] = "application/json"
local token = os.getenv("QG_TOKEN")
if token and token ~= "" then
  wrk.headers["Authorization"] = "Bearer " .. token
end

local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  counts = {}
end

function response(status, headers, body)
  counts[status] = (counts[status] or 0) + 1
end

function done(summary, latency, requests)
  local total = {}
  for _, thread in ipairs(threads) do
    for status, n in pairs(thread:get("counts")) do
      total[status] = (total[status] or 0) + n
    end
  end
  local line = "statuses:"
  local sum = 0
  for _, status in ipairs({200, 429, 503, 504}) do
    line = line .. " " .. status .. "=" .. (total[status] or 0)
    sum = sum + (total[status] or 0)
  end
  for status, n in pairs(total) do
    if status ~= 200 and status ~= 429 and status ~= 503 and status ~= 504 then
      line = line .. " " .. status .. "=" .. n
      sum = sum + n
    end
  end
  local e = summary.errors
  print(line .. " counted=" .. sum .. " completed=" .. summary.requests ..
        " socket_errors=" .. (e.connect + e.read + e.write + e.timeout))
end
