# ptyrun.py CMD...: CMD with PTY in its words replaced by a new terminal's
# name; prints what the terminal received (its slave stays open here, so no
# byte is lost when CMD closes it), exits with CMD's code.
import os, pty, subprocess, sys, select, termios, tty
m, s = pty.openpty()
tty.setraw(s)  # bytes as written: no \n -> \r\n
name = os.ttyname(s)
p = subprocess.Popen([a.replace('PTY', name) for a in sys.argv[1:]], stdout=subprocess.DEVNULL)
got = b''
rc = None
while True:
    r, _, _ = select.select([m], [], [], 0.2)
    if r:
        got += os.read(m, 65536)
    elif rc is not None:
        break
    else:
        rc = p.poll()
sys.stdout.buffer.write(got)
sys.exit(rc)
