/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * spawn: runs inside the benchmark guest (tests/bench/make-large-dump.sh),
 * statically linked.  Forks NPROC processes of NTHREADS threads each, every
 * task blocked in a different kernel path, so that the dump has ~10,000
 * sleeping tasks with varied stacks.  Returns once every task is blocked
 * (as far as a user program can tell: each one has reported before its
 * blocking call), leaving them behind.
 *
 * Usage: spawn NPROC NTHREADS
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include <linux/futex.h>

enum { NR_KINDS = 9 };

static int report_fd;		/* write end: one byte per blocked task */
static int never_fd;		/* a pipe nobody writes to */
static int listen_fd;		/* a socket nobody connects to */
static uint32_t futex_word;

static void report(void)
{
	char c = 1;

	while (write(report_fd, &c, 1) < 0 && errno == EINTR)
		;
}

/* Block forever in one of NR_KINDS syscalls. */
static void block(unsigned int kind)
{
	char c;
	struct timespec ts = { 100000, 0 };
	struct pollfd pfd = { never_fd, POLLIN, 0 };
	fd_set set;
	struct epoll_event ev = { .events = EPOLLIN };
	int ep;
	sigset_t none;

	report();
	for (;;) {
		switch (kind % NR_KINDS) {
		case 0:
			nanosleep(&ts, NULL);
			break;
		case 1:
			syscall(SYS_futex, &futex_word, FUTEX_WAIT_PRIVATE, 0,
				NULL, NULL, 0);
			break;
		case 2:
			if (read(never_fd, &c, 1) < 0)
				nanosleep(&ts, NULL);
			break;
		case 3:
			poll(&pfd, 1, -1);
			break;
		case 4:
			FD_ZERO(&set);
			FD_SET(never_fd, &set);
			select(never_fd + 1, &set, NULL, NULL, NULL);
			break;
		case 5:
			ep = epoll_create1(0);
			if (ep >= 0) {
				ev.data.fd = never_fd;
				epoll_ctl(ep, EPOLL_CTL_ADD, never_fd, &ev);
				epoll_wait(ep, &ev, 1, -1);
			}
			nanosleep(&ts, NULL);
			break;
		case 6:
			sigemptyset(&none);
			sigsuspend(&none);
			break;
		case 7:
			if (accept(listen_fd, NULL, NULL) < 0)
				nanosleep(&ts, NULL);
			break;
		default:
			clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
			break;
		}
	}
}

static void *thread_main(void *arg)
{
	block((unsigned int)(uintptr_t)arg);
	return NULL;
}

static void child(unsigned int index, unsigned int nthreads)
{
	pthread_attr_t attr;
	pthread_t t;
	unsigned int i;

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	for (i = 1; i < nthreads; i++) {
		if (pthread_create(&t, &attr, thread_main,
				   (void *)(uintptr_t)(index + i)) != 0) {
			fprintf(stderr, "spawn: pthread_create failed\n");
			break;
		}
	}
	/* Every tenth process leader waits for a child of its own (wait4);
	 * the others block like their threads. */
	if (index % 10 == 0) {
		pid_t pid = fork();

		if (pid == 0)
			block(index + 1);
		if (pid > 0) {
			report();
			waitpid(pid, NULL, 0);
		}
	}
	block(index);
}

int main(int argc, char **argv)
{
	unsigned int nproc, nthreads, i;
	unsigned long want, got = 0;
	int fds[2], never[2];
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char buf[4096];

	if (argc != 3)
		return 2;
	nproc = (unsigned int)strtoul(argv[1], NULL, 0);
	nthreads = (unsigned int)strtoul(argv[2], NULL, 0);
	if (pipe(fds) < 0 || pipe(never) < 0)
		return 1;
	report_fd = fds[1];
	never_fd = never[0];
	listen_fd = socket(AF_UNIX, SOCK_STREAM, 0);
	strcpy(sa.sun_path, "/tmp/spawn.sock");
	unlink(sa.sun_path);
	if (listen_fd < 0 || bind(listen_fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    listen(listen_fd, 1) < 0)
		return 1;
	/* each tenth leader: +1 for its waiting child */
	want = (unsigned long)nproc * nthreads + (nproc + 9) / 10;
	for (i = 0; i < nproc; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			fprintf(stderr, "spawn: fork %u: %s\n", i, strerror(errno));
			want -= (unsigned long)(nproc - i) * nthreads;
			break;
		}
		if (pid == 0) {
			close(fds[0]);
			child(i * 7, nthreads);
			_exit(0);
		}
	}
	close(fds[1]);
	while (got < want) {
		ssize_t n = read(fds[0], buf, sizeof(buf));

		if (n <= 0)
			break;
		got += (unsigned long)n;
	}
	printf("spawn: %lu tasks blocked (wanted %lu)\n", got, want);
	return got == want ? 0 : 1;
}
