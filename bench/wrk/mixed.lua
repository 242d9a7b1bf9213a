-- The mixed load of bench/mixed-load.ts: each wrk thread cycles through 3 filtered lists, 3 single
-- reads, a create, an edit, add_spent_time and time_stats per 10 requests, on random issues of the
-- `bench/issues` project. Arguments (after `--`): the number of seeded issues. The headers
-- (token, content-type) come from wrk's --header options. Every non-2xx answer is counted.
count_responses = true
local dir = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(dir .. "report.lua")

local P = "/api/v4/projects/bench%2Fissues/issues"
local issues = 10000

local function iid()
  return math.random(1, issues)
end

local kinds = {
  list = function()
    local label = math.random() < 0.5 and "bug" or "feature"
    return wrk.format("GET", P .. "?per_page=20&state=opened&labels=" .. label .. "&page=" .. math.random(1, 5))
  end,
  read = function()
    return wrk.format("GET", P .. "/" .. iid())
  end,
  create = function()
    return wrk.format("POST", P, nil, '{"title":"Created under load ' .. math.random() .. '","labels":"bug"}')
  end,
  edit = function()
    return wrk.format("PUT", P .. "/" .. iid(), nil,
      '{"title":"Edited under load ' .. math.random() .. '","add_labels":"docs"}')
  end,
  spend = function()
    return wrk.format("POST", P .. "/" .. iid() .. "/add_spent_time", nil, '{"duration":"15m","summary":"bench"}')
  end,
  stats = function()
    return wrk.format("GET", P .. "/" .. iid() .. "/time_stats")
  end,
}

local cycle = { "list", "read", "edit", "read", "list", "spend", "read", "create", "list", "stats" }
local step = 0

function init(args)
  issues = tonumber(args[1]) or issues
  -- `id` is set per thread by report.lua's setup(), so that threads draw different issues.
  math.randomseed(os.time() * 100 + (id or 0))
end

function request()
  step = step % #cycle + 1
  return kinds[cycle[step]]()
end
