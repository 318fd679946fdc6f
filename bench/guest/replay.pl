#!/usr/bin/perl
# Replay a start-up read trace (bench/traces/*.trace) under ROOT and print
# the elapsed time in seconds, or ">TIMEOUT" if it did not finish in time.
#   replay.pl ROOT TRACE TIMEOUT_S        (cold cache: it syncs and drops
#                                          the caches itself, then times)
#   replay.pl --mktree ROOT TRACE         create the file tree (sizes of the
#                                          trace's files, real data)
# Only perl-base (no modules): the guest image has no Time::HiRes.
use strict;
use warnings;

sub now {	# CLOCK_MONOTONIC through clock_gettime(2), x86-64 syscall 228
	my $ts = "\0" x 16;
	syscall(228, 1, $ts) == 0 or die "clock_gettime: $!";
	my ($s, $ns) = unpack("q q", $ts);
	return $s + $ns / 1e9;
}

sub mkdirp {
	my $d = shift;
	my $p = "";
	for my $c (split m{/}, $d) {
		next if $c eq "";
		$p .= "/$c";
		mkdir $p unless -d $p;
	}
}

my $mktree = 0;
if (@ARGV && $ARGV[0] eq "--mktree") { $mktree = 1; shift @ARGV; }
my ($root, $trace, $timeout) = @ARGV;
die "usage: replay.pl [--mktree] ROOT TRACE [TIMEOUT_S]\n" unless defined $trace;
$timeout //= 60;

my (@ops, %path, %size);
open(my $t, "<", $trace) or die "$trace: $!";
while (<$t>) {
	chomp;
	next if /^#/ || $_ eq "";
	my @f = split / /, $_, 4;
	if ($f[0] eq "f") { $path{$f[1]} = "$root$f[3]"; $size{$f[1]} = $f[2]; }
	elsif ($f[0] eq "r") { push @ops, [ "r", $f[1], $f[2], $f[3] ]; }
	elsif ($f[0] eq "l") { my (undef, $p) = split / /, $_, 2; push @ops, [ "l", "$root$p" ]; }
}
close $t;

if ($mktree) {
	my $chunk = join("", map { chr(32 + ($_ * 7) % 95) } 0 .. 65535) x 16;	# 1 MiB
	for my $id (sort { $a <=> $b } keys %path) {
		my $p = $path{$id};
		(my $d = $p) =~ s{/[^/]*$}{};
		mkdirp($d);
		open(my $o, ">", $p) or die "$p: $!";
		binmode $o;
		my $left = $size{$id};
		while ($left > 0) {
			my $n = $left < length($chunk) ? $left : length($chunk);
			print $o substr($chunk, 0, $n);
			$left -= $n;
		}
		close $o or die "$p: $!";
	}
	for my $op (@ops) {
		next unless $op->[0] eq "l";
		(my $d = $op->[1]) =~ s{/[^/]*$}{};
		mkdirp($d);
	}
	exit 0;
}

# cold cache: sync(2) (x86-64 syscall 162), then drop the page cache,
# dentries and inodes
syscall(162);
open(my $dc, ">", "/proc/sys/vm/drop_caches") or die "drop_caches: $!";
print $dc "3\n";
close $dc;

$SIG{ALRM} = sub { print ">$timeout\n"; exit 2; };
alarm($timeout);
my $t0 = now();
my %fh;
my $buf;
for my $op (@ops) {
	if ($op->[0] eq "l") { my $x = -e $op->[1]; next; }
	my ($id, $off, $len) = @$op[1 .. 3];
	unless ($fh{$id}) {
		sysopen($fh{$id}, $path{$id}, 0) or die "$path{$id}: $!";
	}
	sysseek($fh{$id}, $off, 0);
	while ($len > 0) {
		my $n = sysread($fh{$id}, $buf, $len > 1048576 ? 1048576 : $len);
		die "read $path{$id}: $!" unless defined $n;
		last if $n == 0;
		$len -= $n;
	}
}
my $dt = now() - $t0;
alarm(0);
printf "%.3f\n", $dt;
