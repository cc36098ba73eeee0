"""The scanner's parts: the buffer, the line cursor, the trigger finder and the loop."""
