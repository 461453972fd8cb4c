-- phase.lua -- a wrk script: one load phase on service.Service whose
-- requests are all answered before wrk stops.
--
-- usage: wrk -t T -c C -d (S+2)s -s phase.lua URL -- S
--
-- For S seconds each connection sends /work (every fourth request
-- /json), then /noop until wrk stops. wrk sends a connection's next
-- request only once the last one's answer is in, so when wrk stops (and
-- drops what is in flight) only /noop requests are lost: the /work and
-- /json answers counted here are exactly the requests the service
-- counted in the phase. Prints "phase: work W json J noop N bad B"
-- (B: answers with a status other than 200).

local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  deadline = os.time() + tonumber(args[1] or "5")
  works, jsons, noops, bad, sent = 0, 0, 0, 0, 0
  work = wrk.format("GET", "/work?n=64")
  noop = wrk.format("GET", "/noop")
end

function request()
  if os.time() >= deadline then
    return noop
  end
  sent = sent + 1
  if sent % 4 == 0 then
    return wrk.format("GET", "/json?id=" .. sent)
  end
  return work
end

function response(status, headers, body)
  if status ~= 200 then
    bad = bad + 1
    return
  end
  local c = body:sub(1, 1)
  if c == "" then
    noops = noops + 1
  elseif c == "{" then
    jsons = jsons + 1
  else
    works = works + 1
  end
end

function done(summary, latency, requests)
  local w, j, n, b = 0, 0, 0, 0
  for _, t in ipairs(threads) do
    w = w + t:get("works")
    j = j + t:get("jsons")
    n = n + t:get("noops")
    b = b + t:get("bad")
  end
  io.write(string.format("phase: work %d json %d noop %d bad %d\n", w, j, n, b))
end
