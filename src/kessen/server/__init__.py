"""The game server: sessions with undo/redo, a WebSocket protocol, COM pacing, the static UI."""
