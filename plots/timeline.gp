# Timeline of one run: throughput (left axis) and power (right axis) against time, with the
# idle / active / tail phases shaded and events (undervoltage, USB faults) as vertical lines;
# what ran outside the phases, not measured, shaded in its own colour and named where it
# fits: a job's file layout (HASPREP, PREPCOL), its size=auto calibration (HASCALIB,
# CALIBCOL) and a run too short for the meter that was run again (HASRETAKEN, RETAKENCOL).
# Usage: gnuplot -c timeline.gp DATADIR   (meta.gp, io.dat: t MB/s steps, power.dat: t W lo hi
# (drawn in PWUNIT, PWS per W),
# one index block per meter, temp.dat: t soc_c drive_c when the run read temperatures;
# job labels in a strip over the plot, placed by iowatt;
# written by `iowatt plot --keep-data`). Jobs too short to see
# as a line are point labels of meta.gp. A file is named in a plot only when it has data:
# gnuplot 5.4 opens the files of an empty iteration too, and warns.
load ARG1.'/meta.gp'

# The title over the strip of job labels (meta.gp: TMARGIN, the plot's top; TITLEY), so
# that no label stands on the data nor pushes it down.
set label 'Timeline: '.TITLE.NOTE at screen 0.5, screen TITLEY center font ',14'
set tmargin at screen TMARGIN
set xlabel 'time since start (s)'
set format x '%.10g'
set format y '%.10g'
if (!DUMB) { set grid xtics ytics lc rgb '#d8d8d8' }
set xtics nomirror
set ytics nomirror
set key outside bottom center horizontal reverse Left samplen 2 width 2 font ',11'
set yrange [0:YMAX]
set autoscale xfix
set style textbox opaque noborder margins 1,1
if (HASIO) { set ylabel 'throughput (MB/s)' tc rgb IOCOL } else { unset ytics; set ylabel '' }
array MCOL[4] = ['#202020', '#8B0000', '#606060', '#4B0082']
io = ARG1.'/io.dat'
power = ARG1.'/power.dat'
# A measured command may move no data: the throughput line is then an empty iteration, and
# as gnuplot opens its file anyway, it names one with points (no "no valid points" warning).
iotrace = HASIO ? io : power
# With temperatures the timeline is the top panel of two, on one time axis.
if (HASTEMP) {
	set multiplot
	set lmargin at screen 0.07
	set rmargin at screen 0.93
	set origin 0, 0.28
	set size 1, 0.72
}
if (NMETERS > 0) {
	set y2label 'power ('.PWUNIT.')'
	set y2tics 0, Y2STEP nomirror
	set format y2 '%.10g'
	set y2range [0:Y2MAX]
	set border 11
	# Under each meter's trace, the 95 % band of its readings from the meter's declared
	# accuracy (power.dat's columns 3 and 4; the trace itself where it declares none).
	# The throughput trace is drawn last, over the power lines, which would hide it where
	# the two scales meet; its key entry stays first.
	plot for [m=1:(DUMB ? 0 : NMETERS)] power index (m-1) using 1:($3*PWS):($4*PWS) axes x1y2 with filledcurves fs transparent solid 0.18 noborder lc rgb MCOL[(m-1)%4+1] notitle, \
	     for [i=1:HASIO] keyentry with lines lw 2.5 lc rgb IOCOL title 'throughput (MB/s)', \
	     for [i=1:HASSHORT] keyentry with points pt 7 ps 1.4 lc rgb IOCOL title 'short job: mean MB/s', \
	     for [m=1:NMETERS] power index (m-1) using 1:($2*PWS) axes x1y2 with lines lw 1.2 lc rgb MCOL[(m-1)%4+1] title 'power ('.PWUNIT.'), '.MNAME[m], \
	     for [i=1:HASIO] iotrace using 1:2 with lines lw 2.5 lc rgb IOCOL notitle, \
	     for [i=1:(DUMB ? 0 : HASBAND)] keyentry with boxes fs transparent solid 0.18 noborder lc rgb MCOL[1] title 'meter uncertainty (95 %)', \
	     keyentry with boxes fs solid 1.0 lc rgb '#EBEBEB' title 'idle', \
	     keyentry with boxes fs solid 1.0 lc rgb '#DDEBF7' title 'active', \
	     keyentry with boxes fs solid 1.0 lc rgb '#FBE2C5' title 'tail (drive still busy after the job)', \
	     for [i=1:HASPREP] keyentry with boxes fs solid 1.0 lc rgb PREPCOL title 'file layout (not measured)', \
	     for [i=1:HASCALIB] keyentry with boxes fs solid 1.0 lc rgb CALIBCOL title 'size=auto calibration (not measured)', \
	     for [i=1:HASRETAKEN] keyentry with boxes fs solid 1.0 lc rgb RETAKENCOL title 'run too short for the meter, run again (left out)'
} else {
	set border 3
	plot io using 1:2 with lines lw 2.5 lc rgb IOCOL title 'throughput (MB/s)', \
	     for [i=1:HASSHORT] keyentry with points pt 7 ps 1.4 lc rgb IOCOL title 'short job: mean MB/s', \
	     keyentry with boxes fs solid 1.0 lc rgb '#EBEBEB' title 'idle', \
	     keyentry with boxes fs solid 1.0 lc rgb '#DDEBF7' title 'active', \
	     keyentry with boxes fs solid 1.0 lc rgb '#FBE2C5' title 'tail (drive still busy after the job)', \
	     for [i=1:HASPREP] keyentry with boxes fs solid 1.0 lc rgb PREPCOL title 'file layout (not measured)', \
	     for [i=1:HASCALIB] keyentry with boxes fs solid 1.0 lc rgb CALIBCOL title 'size=auto calibration (not measured)', \
	     for [i=1:HASRETAKEN] keyentry with boxes fs solid 1.0 lc rgb RETAKENCOL title 'run too short for the meter, run again (left out)'
}
if (HASTEMP) {
	XLO = GPVAL_X_MIN
	XHI = GPVAL_X_MAX
	unset label
	unset title
	set tmargin
	unset y2tics
	set y2label ''
	set border 3
	set origin 0, 0
	set size 1, 0.28
	set xrange [XLO:XHI]
	set yrange [TMIN:TMAX]
	set ytics auto
	set ylabel 'temperature (°C)' tc rgb '#000000'
	set key outside right center vertical reverse Left samplen 2 font ',10'
	temp = ARG1.'/temp.dat'
	if (HASSOC && HASDRIVE) {
		plot temp using 1:2 with lines lw 2 lc rgb '#8B0000' title 'SoC', \
		     temp using 1:3 with lines lw 2 lc rgb '#006400' title 'drive'
	} else {
		plot temp using 1:(HASSOC ? $2 : $3) with lines lw 2 lc rgb (HASSOC ? '#8B0000' : '#006400') title (HASSOC ? 'SoC' : 'drive')
	}
	unset multiplot
}
