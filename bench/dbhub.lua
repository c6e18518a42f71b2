-- POST one MCP JSON-RPC tools/call (QG_BODY) to DBHub's /mcp endpoint and
-- check every answer's body: DBHub answers a failed tool call, a SQL error
-- included, with HTTP 200 and "isError": true, so status codes alone would
-- count failures as successes. A body counts as ok when it is a 200 holding
-- the tool's {"success": true, ...} text and no isError.
-- The streamable HTTP transport wants both JSON and SSE in Accept (406 otherwise).
wrk.method = "POST"
wrk.body = os.getenv("QG_BODY")
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"

local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  ok = 0
  failed = 0
end

function response(status, headers, body)
  -- The tool's result is JSON text inside the JSON-RPC result, so its quotes are escaped.
  if status == 200 and string.find(body, '\\"success\\": true', 1, true) and
     not string.find(body, '"isError":true', 1, true) then
    ok = ok + 1
  else
    failed = failed + 1
  end
end

function done(summary, latency, requests)
  local o, f = 0, 0
  for _, thread in ipairs(threads) do
    o = o + thread:get("ok")
    f = f + thread:get("failed")
  end
  local e = summary.errors
  print("bodies: ok=" .. o .. " failed=" .. f .. " completed=" .. summary.requests ..
        " socket_errors=" .. (e.connect + e.read + e.write + e.timeout))
end
