"""A desktop notification server for tests: the freedesktop.org Notifications service on a private D-Bus session bus.

Chromium on Linux shows a web page's notifications through this service (org.freedesktop.Notifications on the session
bus) and learns from it that a person clicked one (the ActionInvoked signal with the "default" action), which it turns
into the service worker's `notificationclick` event, exactly as on a desktop. This server records what Chromium shows
and clicks a notification when the test says so, so that a browser test can tap a notification for real.

It runs under Debian's Python with its D-Bus bindings (packages dbus-daemon, python3-dbus, python3-gi), not the venv's:

    /usr/bin/python3 tests/support/notification_server.py

It starts its own session bus (`dbus-daemon`, starting no services), prints that bus's address as its first line on stdout (give it to Chromium as
DBUS_SESSION_BUS_ADDRESS), then one line per event, flushed at once:
  shown ID<TAB>SUMMARY<TAB>BODY      Chromium showed notification ID (a number this server gives);
  closed ID                          Chromium closed it (CloseNotification);
  clicked ID                         this server sent ActionInvoked(ID, "default") when asked.
It reads commands on stdin, one a line:
  click ID                           the person clicks notification ID;
and stops, with its bus, when its standard input closes, so that a test process that dies never leaves it running.
"""
import os
import subprocess
import sys
import tempfile

import dbus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

INTERFACE = "org.freedesktop.Notifications"
# A session bus that starts no services (no <servicedir>): Chromium asks it for the accessibility bus, which must not
# start processes that outlive the test.
BUS_CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:tmpdir=/tmp</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
"""


def say(line):
    print(line, flush=True)


class Notifications(dbus.service.Object):
    """The Desktop Notifications Specification 1.2's methods and signals that Chromium uses."""

    def __init__(self, bus):
        super().__init__(bus, "/org/freedesktop/Notifications")
        self.last_id = 0

    @dbus.service.method(INTERFACE, out_signature="as")
    def GetCapabilities(self):
        # "actions": Chromium then adds the "default" action, which a click on the notification invokes.
        return ["actions", "body", "body-hyperlinks", "body-markup"]

    @dbus.service.method(INTERFACE, out_signature="ssss")
    def GetServerInformation(self):
        return ("studykit-test-notifications", "StudyKit", "1", "1.2")

    @dbus.service.method(INTERFACE, in_signature="susssasa{sv}i", out_signature="u")
    def Notify(self, app_name, replaces_id, app_icon, summary, body, actions, hints, timeout):
        notification = int(replaces_id) or self.last_id + 1
        self.last_id = max(self.last_id, notification)
        flat = lambda text: str(text).replace("\t", " ").replace("\n", " ")
        say(f"shown {notification}\t{flat(summary)}\t{flat(body)}")
        return dbus.UInt32(notification)

    @dbus.service.method(INTERFACE, in_signature="u")
    def CloseNotification(self, notification):
        say(f"closed {int(notification)}")
        self.NotificationClosed(notification, dbus.UInt32(3))  # 3: closed by a call to CloseNotification

    @dbus.service.signal(INTERFACE, signature="us")
    def ActionInvoked(self, notification, action_key):
        pass

    @dbus.service.signal(INTERFACE, signature="uu")
    def NotificationClosed(self, notification, reason):
        pass


def main():
    config = tempfile.NamedTemporaryFile("w", suffix=".conf", prefix="studykit-bus-")
    config.write(BUS_CONFIG)
    config.flush()
    # Its complaint that it cannot raise its file limit (it is not run by the system) is of no interest here.
    daemon = subprocess.Popen(["dbus-daemon", f"--config-file={config.name}", "--nofork", "--nopidfile", "--print-address=1"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    address = daemon.stdout.readline().strip()
    try:
        dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
        bus = dbus.bus.BusConnection(address)
        name = dbus.service.BusName(INTERFACE, bus)  # kept: the name is released when this object goes
        service = Notifications(bus)
        loop = GLib.MainLoop()

        def command(source, condition):
            line = sys.stdin.readline()
            if not line:
                loop.quit()
                return False
            words = line.split()
            if len(words) == 2 and words[0] == "click":
                service.ActionInvoked(dbus.UInt32(int(words[1])), "default")
                say(f"clicked {int(words[1])}")
            return True

        GLib.io_add_watch(sys.stdin, GLib.IO_IN | GLib.IO_HUP, command)
        say(address)
        loop.run()
        del name
    finally:
        daemon.terminate()
        daemon.wait(timeout=10)
        config.close()


if __name__ == "__main__":
    os.environ.pop("DBUS_SESSION_BUS_ADDRESS", None)
    main()
