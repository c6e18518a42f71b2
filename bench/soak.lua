-- A constant mixed load for the soak (bench/soak.sh). QG_REQUESTS holds one
-- request per line, "EXPECTED_STATUS<TAB>JSON body"; every connection sends
-- them in turn, pausing QG_PACE_MS milliseconds between requests so the load
-- stays well below saturation. "{ID}" in a body becomes a random span id, so
-- statements differ in their literals (as an agent's do) while their shapes repeat.
-- done() prints what was sent per expected status and what came back, so the
-- soak can check that every answer was the expected one.
local path = "/v1/query"
local pause = tonumber(os.getenv("QG_PACE_MS") or "10")
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  templates = {}
  for line in string.gmatch(os.getenv("QG_REQUESTS"), "[^\n]+") do
    local status, body = string.match(line, "^(%d+)\t(.*)$")
    table.insert(templates, { status = tonumber(status), body = body })
  end
  next_index = 1
  sent = {}
  got = {}
  math.randomseed(os.time() + #threads)
end

function request()
  local t = templates[next_index]
  next_index = next_index % #templates + 1
  sent[t.status] = (sent[t.status] or 0) + 1
  local body = string.gsub(t.body, "{ID}", tostring(math.random(1, 60000)))
  return wrk.format("POST", path, { ["Content-Type"] = "application/json" }, body)
end

function response(status, headers, body)
  got[status] = (got[status] or 0) + 1
end

function delay()
  return pause
end

local function line(label, counts)
  local keys = {}
  for k in pairs(counts) do table.insert(keys, k) end
  table.sort(keys)
  local out = label .. ":"
  for _, k in ipairs(keys) do out = out .. " " .. k .. "=" .. counts[k] end
  return out
end

function done(summary, latency, requests)
  local total_sent, total_got = {}, {}
  for _, thread in ipairs(threads) do
    for k, n in pairs(thread:get("sent")) do total_sent[k] = (total_sent[k] or 0) + n end
    for k, n in pairs(thread:get("got")) do total_got[k] = (total_got[k] or 0) + n end
  end
  local e = summary.errors
  print(line("sent", total_sent))
  print(line("got", total_got))
  print("completed=" .. summary.requests .. " socket_errors=" .. (e.connect + e.read + e.write + e.timeout) ..
        " p50_ms=" .. string.format("%.2f", latency:percentile(50) / 1000) ..
        " p99_ms=" .. string.format("%.2f", latency:percentile(99) / 1000))
end
