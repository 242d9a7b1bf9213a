-- A POST of one fixed JSON body (bench/peer.ts's creation row). Arguments (after `--`): the body.
-- The headers (token, content-type) come from wrk's --header options. Every non-2xx answer is counted.
count_responses = true
local dir = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(dir .. "report.lua")

function init(args)
  wrk.method = "POST"
  wrk.body = args[1]
end
