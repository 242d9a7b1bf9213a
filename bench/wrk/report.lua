-- Loaded by every wrk run of bench/ (directly, or through dofile from a request script): at the end
-- prints one line `wrk-json {...}` that bench/support/wrk.ts parses. Latencies are in microseconds;
-- cpu_ticks is wrk's own user+system CPU time (/proc/self/stat, in clock ticks).
-- non2xx: when the script defines `count_responses = true` before loading this file, every answer
-- outside 200-299 is counted through a response() hook; otherwise it is wrk's own count
-- (summary.errors.status, answers with a status above 399: the "Non-2xx or 3xx" line), which keeps
-- wrk's fast path (a response() hook makes wrk copy every body into Lua).
local threads = {}

function setup(thread)
  thread:set("id", #threads + 1)
  table.insert(threads, thread)
end

if count_responses then
  non2xx = 0
  function response(status)
    if status < 200 or status > 299 then
      non2xx = non2xx + 1
    end
  end
end

local function own_cpu_ticks()
  local f = io.open("/proc/self/stat", "r")
  if not f then return -1 end
  local stat = f:read("*a")
  f:close()
  -- Fields after the ")" that ends the command name: state is field 3, utime 14, stime 15.
  local rest = stat:match("%) (.*)$")
  local fields = {}
  for word in rest:gmatch("%S+") do table.insert(fields, word) end
  return tonumber(fields[12]) + tonumber(fields[13])
end

function done(summary, latency, requests)
  local non2xx = summary.errors.status
  if count_responses then
    non2xx = 0
    for _, thread in ipairs(threads) do non2xx = non2xx + thread:get("non2xx") end
  end
  local e = summary.errors
  io.write(string.format(
    'wrk-json {"requests":%d,"duration_us":%d,"p50_us":%d,"p99_us":%d,"connect":%d,"read":%d,' ..
      '"write":%d,"timeout":%d,"non2xx":%d,"cpu_ticks":%d}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.connect, e.read, e.write, e.timeout, non2xx, own_cpu_ticks()))
end
