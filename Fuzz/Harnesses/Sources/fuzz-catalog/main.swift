import FuzzSupport

runFuzzer(fuzzCatalog)
