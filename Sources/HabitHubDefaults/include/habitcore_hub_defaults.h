/* Sources/HabitHubDefaults: the hub header's _INIT macros as hc_hub_<struct>_init
 * functions (declared in include/habitcore_hub.h). Nothing else to declare. */
