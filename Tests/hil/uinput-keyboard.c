// A scripted uinput keyboard for Tests/hil/run-cli-evdev: plugs in, presses and releases the space bar
// and unplugs, in the order its arguments say, printing each step with its CLOCK_MONOTONIC time.
// usage: uinput-keyboard NAME STEP...   steps: c plug in | sNN sleep NN ms | p press | r release | u unplug
#include <fcntl.h>
#include <linux/uinput.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
static int fd = -1;
static const char *name;
static void create(void) {
    fd = open("/dev/uinput", O_WRONLY | O_NONBLOCK);
    ioctl(fd, UI_SET_EVBIT, EV_KEY);
    for (int k = KEY_ESC; k <= KEY_D; k++) ioctl(fd, UI_SET_KEYBIT, k);
    ioctl(fd, UI_SET_KEYBIT, KEY_SPACE);
    struct uinput_setup setup; memset(&setup, 0, sizeof setup);
    setup.id.bustype = BUS_USB; setup.id.vendor = 0x1234; setup.id.product = 0x5678;
    strncpy(setup.name, name, UINPUT_MAX_NAME_SIZE - 1);
    ioctl(fd, UI_DEV_SETUP, &setup);
    ioctl(fd, UI_DEV_CREATE);
    fprintf(stderr, "keyboard: created\n");
}
static void emit(int type, int code, int value) {
    struct input_event ev; memset(&ev, 0, sizeof ev);
    ev.type = type; ev.code = code; ev.value = value;
    write(fd, &ev, sizeof ev);
}
static void key(int value) { emit(EV_KEY, KEY_SPACE, value); emit(EV_SYN, SYN_REPORT, 0); struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); fprintf(stderr, "keyboard: %s at %ld.%06ld\n", value ? "press" : "release", (long)t.tv_sec, t.tv_nsec / 1000); }
int main(int argc, char **argv) {
    name = argv[1];
    for (int i = 2; i < argc; i++) {
        const char *s = argv[i];
        if (s[0] == 's') usleep(atoi(s + 1) * 1000);
        else if (s[0] == 'p') key(1);
        else if (s[0] == 'r') key(0);
        else if (s[0] == 'c') create();
        else if (s[0] == 'u') { ioctl(fd, UI_DEV_DESTROY); close(fd); fd = -1; fprintf(stderr, "keyboard: unplugged\n"); }
    }
    return 0;
}
