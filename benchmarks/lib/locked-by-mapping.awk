# Where a process's locked memory is, from /proc/PID/smaps: the executable's code, the executable's
# other mappings (read-only data, relocated data), shared libraries, and anonymous memory (heap,
# stacks, arenas). With MCL_ONFAULT a mapping's Locked equals its resident pages, so this says which
# part of the program's footprint the lock holds. Usage: awk -v exe=PATH -f locked-by-mapping.awk /proc/PID/smaps
/^[0-9a-f]+-[0-9a-f]+ / {
    perm = $2; name = $6
    if (name == exe) kind = (perm ~ /x/) ? "executable code" : "executable data"
    else if (name ~ /^\//) kind = "libraries and files"
    else kind = "anonymous (heap, stacks)"
    next
}
$1 == "Locked:" { locked[kind] += $2 }
END {
    n = split("executable code|executable data|libraries and files|anonymous (heap, stacks)", kinds, "|")
    for (i = 1; i <= n; i++) printf "%s%s %.1f MiB", (i > 1 ? ", " : ""), kinds[i], locked[kinds[i]] / 1024
    printf "\n"
}
