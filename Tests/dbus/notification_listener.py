#!/usr/bin/python3
"""A stand-in for the desktop's notification service (org.freedesktop.Notifications) on a private
session bus: records each Notify call as one JSON line in RECORD and, a moment later, emits
ActionInvoked(id, "default") as a click on the notification would. Used by Tests/dbus/run."""
import json
import sys

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

RECORD = sys.argv[1]
NAME = "org.freedesktop.Notifications"


class Notifications(dbus.service.Object):
    def __init__(self, bus):
        super().__init__(bus, "/org/freedesktop/Notifications")
        self.next_id = 0

    @dbus.service.method(NAME, in_signature="susssasa{sv}i", out_signature="u")
    def Notify(self, app_name, replaces_id, app_icon, summary, body, actions, hints, expire_timeout):
        self.next_id += 1
        with open(RECORD, "a") as out:
            out.write(json.dumps({"app_name": str(app_name), "summary": str(summary), "body": str(body),
                                  "actions": [str(a) for a in actions], "expire_timeout": int(expire_timeout)}) + "\n")
        notification = self.next_id
        if "default" in actions:
            GLib.timeout_add(100, lambda: (self.ActionInvoked(notification, "default"), False)[1])
        return notification

    @dbus.service.method(NAME, out_signature="ssss")
    def GetServerInformation(self):
        return ("chronoception-test-listener", "chronoception", "1", "1.2")

    @dbus.service.signal(NAME, signature="us")
    def ActionInvoked(self, id, action_key):
        pass


DBusGMainLoop(set_as_default=True)
bus = dbus.SessionBus()
name = dbus.service.BusName(NAME, bus)
service = Notifications(bus)
print("listening", flush=True)
GLib.MainLoop().run()
