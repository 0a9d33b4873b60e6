import FuzzSupport

runFuzzer(fuzzService)
