-- Requests to emulate (bench/peer.ts) that rotate through its seed's tokens, `Bearer <prefix><n>`
-- for n in 0..count-1: emulate allows 5,000 requests an hour per token (then answers 403) and has
-- no switch to turn that off, as ours has for its issue-creation limit. Arguments (after `--`):
-- method, token prefix, token count, and a body (optional). Every non-2xx answer is counted.
count_responses = true
local dir = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(dir .. "report.lua")

local requests = {}
local n = 0

function init(args)
  local method, prefix, count, body = args[1], args[2], tonumber(args[3]), args[4]
  -- Each thread starts at its own place in the rotation.
  n = (id or 0) * 7
  for i = 0, count - 1 do
    local headers = {}
    for k, v in pairs(wrk.headers) do headers[k] = v end
    headers["Authorization"] = "Bearer " .. prefix .. i
    requests[i + 1] = wrk.format(method, nil, headers, body)
  end
end

function request()
  n = n % #requests + 1
  return requests[n]
end
