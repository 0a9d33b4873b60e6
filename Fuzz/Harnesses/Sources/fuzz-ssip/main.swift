import FuzzSupport

runFuzzer(fuzzSSIP)
