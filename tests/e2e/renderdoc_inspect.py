#!/usr/bin/python3
"""Replays a RenderDoc capture (.rdc) and prints what a frame did, as JSON.

Run with Debian's /usr/bin/python3: the `renderdoc` module comes from python3-renderdoc
(/usr/lib/python3/dist-packages/renderdoc.so) and must match the librenderdoc that wrote the capture.

    /usr/bin/python3 tests/e2e/renderdoc_inspect.py CAPTURE.rdc [--count-buffer-name REGEX] [--out FILE]

Output:
  markers         every debug-label region (vkCmdBeginDebugUtilsLabelEXT) and inserted label, in frame
                  order: name, path (enclosing region names joined by '/'), depth, event_id.
  indirect_draws  every indirect draw call (vkCmdDraw*Indirect*), once per API call even where RenderDoc
                  expands a multi-draw into one action per draw: the call, the enclosing marker path, the
                  argument buffer, and for the *IndirectCount calls the count buffer (from the call's own
                  parameters) and its value when the draw executes (the frame replayed up to just before
                  the render pass and queries open at the draw, count_read_at_event, see read_event;
                  --read-at-draw: up to the draw itself).
                  Without a count buffer parameter, the first buffer whose debug name matches
                  --count-buffer-name is read instead, and count_source says so.
Exit status: 0 on success, 2 when the capture cannot be opened or replayed (the JSON says why).
"""
import argparse
import json
import re
import struct
import sys

try:
    import renderdoc as rd
except ImportError:
    sys.path.append("/usr/lib/python3/dist-packages")  # python3-renderdoc's location on Debian
    import renderdoc as rd


def chunk_of(controller_sd, action):
    """The structured-data chunk of the API call that made this action (its own event)."""
    for ev in action.events:
        if ev.eventId == action.eventId:
            return ev.chunkIndex, controller_sd.chunks[ev.chunkIndex]
    return None, None


def child_value(chunk, name, kind):
    obj = chunk.FindChild(name)
    if obj is None:
        return None
    return obj.AsResourceId() if kind == "resource" else obj.AsInt()


class Inspector:
    def __init__(self, controller, count_name_pattern, read_at_draw):
        self.ctl = controller
        self.sd = controller.GetStructuredFile()
        self.resources = {int(r.resourceId): (r.resourceId, r.name) for r in controller.GetResources()}
        self.count_name = re.compile(count_name_pattern, re.IGNORECASE) if count_name_pattern else None
        self.markers = []
        self.indirect = []
        self.seen_chunks = set()
        self.action_count = 0
        self.draw_count = 0
        self.read_at_draw = read_at_draw
        self.open_scopes = []  # begin events of the render pass and queries active at this point

    def name_of(self, rid):
        entry = self.resources.get(int(rid))
        return entry[1] if entry else None

    def track_scopes(self, action):
        """Follows the render-pass and query scopes open at each action. Queries begin and end in events
        that are not actions, so every event of the action is looked at."""
        for ev in action.events:
            call = self.sd.chunks[ev.chunkIndex].name
            if call.startswith(("vkCmdBeginRendering", "vkCmdBeginRenderPass", "vkCmdBeginQuery")):
                self.open_scopes.append((call, ev.eventId))
            elif call.startswith(("vkCmdEndRendering", "vkCmdEndRenderPass")):
                self.open_scopes = [s for s in self.open_scopes if "Query" in s[0]]
            elif call.startswith("vkCmdEndQuery"):
                queries = [i for i, s in enumerate(self.open_scopes) if "Query" in s[0]]
                if queries:
                    del self.open_scopes[queries[0]]

    def read_event(self, draw_event):
        """Where to read a draw's count buffer. RenderDoc 1.24 replays up to an event by cutting the command
        buffer there, and does not end a query that is active at that point (the draw passes' pipeline
        statistics query); lavapipe (Mesa 22.3) then writes to freed memory in its queue thread and the
        replay crashes. So by default the buffer is read just before the outermost render pass or query
        open at the draw. That is the value at the draw unless something between writes the buffer: no
        transfer or compute command can run inside a render pass, but one inside a query would be missed;
        draws_in_capture (the count RenderDoc saw when capturing) cross-checks it."""
        if self.read_at_draw or not self.open_scopes:
            return draw_event
        return min(e for _, e in self.open_scopes) - 1

    def read_u32(self, event_id, rid, offset):
        self.ctl.SetFrameEvent(event_id, True)
        data = bytes(self.ctl.GetBufferData(rid, offset, 4))
        return struct.unpack("<I", data)[0] if len(data) == 4 else None

    def walk(self, actions, path):
        for a in actions:
            self.action_count += 1
            flags = a.flags
            name = a.GetName(self.sd)
            if flags & rd.ActionFlags.Drawcall:
                self.draw_count += 1
            _, chunk = chunk_of(self.sd, a)
            self.track_scopes(a)
            # RenderDoc wraps the draws it expands from a multi-draw call in a region of its own; only
            # regions the application labelled count as markers.
            synthetic = chunk is not None and chunk.name.startswith("vkCmdDraw")
            is_marker = bool(flags & (rd.ActionFlags.PushMarker | rd.ActionFlags.SetMarker)) and not synthetic
            if is_marker:
                self.markers.append({
                    "name": name,
                    "path": "/".join(path + [name]),
                    "depth": len(path),
                    "event_id": a.eventId,
                    "region": bool(flags & rd.ActionFlags.PushMarker),
                })
            self.maybe_indirect(a, name, path)
            if is_marker and flags & rd.ActionFlags.PushMarker:
                self.walk(a.children, path + [name])
            else:
                self.walk(a.children, path)

    def maybe_indirect(self, action, name, path):
        index, chunk = chunk_of(self.sd, action)
        if chunk is None or not chunk.name.startswith("vkCmdDraw") or "Indirect" not in chunk.name:
            return
        if index in self.seen_chunks:  # one of the draws RenderDoc expanded from a multi-draw call
            return
        self.seen_chunks.add(index)
        entry = {
            "call": chunk.name,
            "action": name,
            "event_id": action.eventId,
            "marker": "/".join(path),
            "draws_in_capture": sum(1 for c in action.children if c.flags & rd.ActionFlags.Drawcall)
            or (1 if action.flags & rd.ActionFlags.Drawcall else 0),
        }
        args = child_value(chunk, "buffer", "resource")
        if args is not None:
            entry["args_buffer"] = {"id": int(args), "name": self.name_of(args),
                                    "offset": child_value(chunk, "offset", "int")}
        count_rid = child_value(chunk, "countBuffer", "resource")
        if count_rid is not None:
            offset = child_value(chunk, "countBufferOffset", "int") or 0
            entry["max_draw_count"] = child_value(chunk, "maxDrawCount", "int")
            entry["count_buffer"] = {"id": int(count_rid), "name": self.name_of(count_rid), "offset": offset}
            entry["count_read_at_event"] = self.read_event(action.eventId)
            entry["count"] = self.read_u32(entry["count_read_at_event"], count_rid, offset)
            entry["count_source"] = "countBuffer parameter"
        elif "Count" in chunk.name:
            entry["count"] = None
            entry["count_source"] = "no countBuffer parameter and no buffer named like /%s/" % (
                self.count_name.pattern if self.count_name else "")
            for rid, rname in self.resources.values():
                if self.count_name and rname and self.count_name.search(rname):
                    entry["count_buffer"] = {"id": int(rid), "name": rname, "offset": 0}
                    entry["count_read_at_event"] = self.read_event(action.eventId)
                    entry["count"] = self.read_u32(entry["count_read_at_event"], rid, 0)
                    entry["count_source"] = "buffer named like /%s/" % self.count_name.pattern
                    break
        else:
            entry["count"] = child_value(chunk, "drawCount", "int")
            entry["count_source"] = "drawCount parameter"
        self.indirect.append(entry)


def fail(message, out):
    json.dump({"error": message}, out, indent=2)
    out.write("\n")
    return 2


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("capture")
    ap.add_argument("--count-buffer-name", default=r"counts?",
                    help="regex for the count buffer's debug name, used only when a count draw's "
                         "parameters do not name it")
    ap.add_argument("--read-at-draw", action="store_true",
                    help="read count buffers at the draw's own event instead of just before the render pass and "
                         "queries open there (crashes lavapipe 22.3 when a query is open)")
    ap.add_argument("--out", help="write the JSON here instead of stdout")
    opts = ap.parse_args()
    out = open(opts.out, "w") if opts.out else sys.stdout

    rd.InitialiseReplay(rd.GlobalEnvironment(), [])
    cap = rd.OpenCaptureFile()
    controller = None
    try:
        result = cap.OpenFile(opts.capture, "", None)
        if result != rd.ResultCode.Succeeded:
            return fail("cannot open %s: %s" % (opts.capture, result.Message()), out)
        support = cap.LocalReplaySupport()
        if support != rd.ReplaySupport.Supported:
            return fail("%s capture cannot be replayed here (%s): %s" % (
                cap.DriverName(), support, cap.RecordedMachineIdent()), out)
        result, controller = cap.OpenCapture(rd.ReplayOptions(), None)
        if result != rd.ResultCode.Succeeded:
            return fail("replay of %s failed: %s" % (opts.capture, result.Message()), out)

        inspector = Inspector(controller, opts.count_buffer_name, opts.read_at_draw)
        inspector.walk(controller.GetRootActions(), [])
        report = {
            "capture": opts.capture,
            "driver": cap.DriverName(),
            "actions": inspector.action_count,
            "draws": inspector.draw_count,
            "markers": inspector.markers,
            "marker_paths": [m["path"] for m in inspector.markers],
            "indirect_draws": inspector.indirect,
        }
        json.dump(report, out, indent=2)
        out.write("\n")
        return 0
    finally:
        if controller is not None:
            controller.Shutdown()
        cap.Shutdown()
        rd.ShutdownReplay()
        if out is not sys.stdout:
            out.close()


if __name__ == "__main__":
    sys.exit(main())
