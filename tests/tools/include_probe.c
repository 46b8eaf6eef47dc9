/*
 * include_probe.c - one include, compiled as a file of a given target
 * (tests/suite.cmake, "include probes"): PR_PROBE names the header, e.g.
 * "render/chart.h", and the probe's target links only the library whose
 * files it stands for. A header that library may not see must fail to
 * compile: include paths are per target (pr_headers, CMakeLists.txt).
 */
#include PR_PROBE

int pr_include_probe(void);
int pr_include_probe(void)
{
	return 0;
}
