// comops entry point.
#include "harness/driver.hpp"

int main(int argc, char** argv) { return comops::run_comops(argc, argv); }
