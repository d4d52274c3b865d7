#!/usr/bin/env python3
"""What Python's zoneinfo says about every zone, for the TZif reader's test
(Tests/DomainTests/AllZonesTests.swift): at each transition from 1970 to 2100 (the
instants zdump -v lists: the last second before and the first at each change) and at
local noon on the 15th of each month, the UTC offset and the local date.

Output, one zone after another:
    Z <zone name>
    <utc seconds> <offset seconds> <local date as days since 1970-01-01>
Zones: zoneinfo.available_timezones() (the tzdata zones; posix/ and right/ copies left out).
"""
import datetime
import subprocess
import sys
import zoneinfo

EPOCH_ORDINAL = datetime.date(1970, 1, 1).toordinal()
UTC = datetime.timezone.utc


def transitions(zones):
    """Per zone, the UTC instants zdump -v lists between 1970 and 2100."""
    found = {zone: [] for zone in zones}
    output = subprocess.run(["zdump", "-v", "-c", "1970,2101"] + zones, capture_output=True, text=True, check=True).stdout
    for line in output.splitlines():
        if line.endswith("NULL") or " UT = " not in line:
            continue
        name, rest = line.split(None, 1)
        stamp = rest.split(" UT = ")[0].strip()
        when = datetime.datetime.strptime(stamp, "%a %b %d %H:%M:%S %Y").replace(tzinfo=UTC)
        found[name].append(int(when.timestamp()))
    return found


def main():
    zones = sorted(zoneinfo.available_timezones())
    instants = transitions(zones)
    out = sys.stdout
    for name in zones:
        zone = zoneinfo.ZoneInfo(name)
        points = set(instants[name])
        for year in range(1970, 2101):
            for month in range(1, 13):
                noon = datetime.datetime(year, month, 15, 12, tzinfo=zone)
                points.add(int(noon.timestamp()))
        out.write(f"Z {name}\n")
        for seconds in sorted(points):
            local = datetime.datetime.fromtimestamp(seconds, zone)
            offset = int(local.utcoffset().total_seconds())
            out.write(f"{seconds} {offset} {local.date().toordinal() - EPOCH_ORDINAL}\n")


if __name__ == "__main__":
    main()
