-- wrk script: the companion mix of mixed.lua held at a fixed total rate. wrk is closed-loop (each
-- connection sends its next request when the last one is answered); here every thread keeps an
-- absolute send schedule on CLOCK_MONOTONIC (LuaJIT's FFI) and `delay()` waits until the next slot,
-- so the rate is the schedule's as long as the server keeps up. A thread that fell behind by more than
-- a second starts a new schedule instead of bursting to catch up.
--
--   RATE=200 THREADS=2 wrk -t 2 -c 4 -d 30s -s benchmarks/companion/paced.lua http://127.0.0.1:8737
local ffi = require("ffi")
ffi.cdef [[
    typedef struct { long tv_sec; long tv_nsec; } chrono_timespec;
    int clock_gettime(int clock, chrono_timespec *now);
]]
local CLOCK_MONOTONIC = 1
local timespec = ffi.new("chrono_timespec")
local function now_ms()
    ffi.C.clock_gettime(CLOCK_MONOTONIC, timespec)
    return tonumber(timespec.tv_sec) * 1000 + tonumber(timespec.tv_nsec) / 1e6
end

local rate = tonumber(os.getenv("RATE") or "200")
local threads = tonumber(os.getenv("THREADS") or "2")
local period_ms = 1000 * threads / rate
local next_ms = nil

local paths = { "/api/v1/device", "/api/v1/progress", "/api/v1/device", "/api/v1/progress/daily?days=90" }
local n = 0

request = function()
    n = n + 1
    return wrk.format("GET", paths[(n % #paths) + 1])
end

delay = function()
    local now = now_ms()
    if next_ms == nil or next_ms < now - 1000 then next_ms = now end
    next_ms = next_ms + period_ms
    local wait = next_ms - now
    if wait < 0 then return 0 end
    return math.floor(wait)
end
