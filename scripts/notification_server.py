#!/usr/bin/env python3
"""A desktop notification server for the tests: owns
org.freedesktop.Notifications on the session bus (as a desktop's
notification daemon does), writes each Notify call as a JSON line to
RECORD, writes READY once it owns the name, and stops by itself after
SECONDS. Usage: notification_server.py RECORD READY SECONDS
(inside `dbus-run-session`; needs dbus-next, scripts/servers-requirements.txt)."""
import asyncio
import json
import sys

from dbus_next.aio import MessageBus
from dbus_next.service import ServiceInterface, method


class Notifications(ServiceInterface):
    def __init__(self, record):
        super().__init__("org.freedesktop.Notifications")
        self.record = record
        self.next_id = 1

    @method()
    def Notify(self, app_name: "s", replaces_id: "u", app_icon: "s", summary: "s", body: "s",
               actions: "as", hints: "a{sv}", expire_timeout: "i") -> "u":
        with open(self.record, "a", encoding="utf-8") as f:
            f.write(json.dumps({"app_name": app_name, "summary": summary, "body": body}) + "\n")
        self.next_id += 1
        return self.next_id - 1

    @method()
    def GetCapabilities(self) -> "as":
        return ["body"]

    @method()
    def GetServerInformation(self) -> "ssss":
        return ["ics-agenda-tests", "ics-agenda", "1", "1.2"]

    @method()
    def CloseNotification(self, id: "u"):
        return None


async def main(record, ready, seconds):
    bus = await MessageBus().connect()
    bus.export("/org/freedesktop/Notifications", Notifications(record))
    await bus.request_name("org.freedesktop.Notifications")
    with open(ready, "w") as f:
        f.write("ready\n")
    await asyncio.sleep(seconds)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], float(sys.argv[3])))
