import ChronoCLI

Chronoception.runAndExit()
