-- GETs of the URL given to wrk with a query parameter no two requests share (`&miss=<thread>-<n>`):
-- the response cache keys on the URL, so every request is a miss, while the server ignores the
-- parameter as GitLab does an unknown one. Every non-2xx answer is counted.
count_responses = true
local dir = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(dir .. "report.lua")

local n = 0

function request()
  n = n + 1
  return wrk.format(nil, wrk.path .. "&miss=" .. (id or 0) .. "-" .. n)
end
