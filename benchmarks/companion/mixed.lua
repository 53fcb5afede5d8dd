-- wrk script: the glanceable mix a companion makes, alternating device status and progress.
local paths = { "/api/v1/device", "/api/v1/progress", "/api/v1/device", "/api/v1/progress/daily?days=90" }
local n = 0
request = function()
    n = n + 1
    return wrk.format("GET", paths[(n % #paths) + 1])
end
