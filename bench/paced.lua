-- Like query.lua, but each connection pauses QG_PACE_MS milliseconds between
-- requests, so the offered load stays below saturation: latency then measures
-- the gateway, not the queue wrk builds in front of a saturated server.
wrk.method = "POST"
wrk.body = os.getenv("QG_BODY")
wrk.headers["Content-Type"] = "application/json"
local token = os.getenv("QG_TOKEN")
if token and token ~= "" then
  wrk.headers["Authorization"] = "Bearer " .. token
end
local pause = tonumber(os.getenv("QG_PACE_MS") or "1")

function delay()
  return pause
end
