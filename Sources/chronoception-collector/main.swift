import ChronoCollectorCLI

ChronoceptionCollector.runAndExit()
