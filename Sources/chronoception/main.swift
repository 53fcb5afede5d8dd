import ChronoCLI

Chronoception.main()
