# Efficiency per job: IOPS per mA (top, a panel per record size: 4 KiB and 16 MiB records
# differ by decades) and energy per GB (bottom, one axis for all jobs), devices side by side.
# Usage: gnuplot -c efficiency.gp DATADIR   (DATADIR holds meta.gp and efficiency.dat,
# written by `iowatt plot --keep-data`). Columns: x_panel x_all iops_per_ma j_per_gb (in JPGUNIT) valid
# device panel text1 text2 invalid label_y1 label_y2 (labels as text, "" for none), then
# each figure's 95 % interval (lo hi, NaN: none) drawn as error bars, then text1 and text2
# again where the label reads across its bar's slot ("": it is wider, and stands upright).
# A bar's label is over it, in red with "INVALID" or "UNCERTAIN" after the figure when its
# run is. (Layers leave text out as "", never a point as NaN: gnuplot 5.4.4 crashes on a
# labels layer whose points are all NaN.)
load ARG1.'/meta.gp'
dat = ARG1.'/efficiency.dat'

set multiplot title 'Storage efficiency per job'.NOTE font ',15'
if (!DUMB) { set grid ytics lc rgb '#d0d0d0' }
set logscale y
# Decades in SI (100 m, 1 k, 1 M), never 1e+06: '%.0s' is the mantissa, '%c' its prefix.
set format y '%.0s %c'
set border 3
set tics nomirror
# Bars are a label's line wide: job names slant steeply to fit their narrow groups.
if (TICROT) { set xtics rotate by 45 right } else { set xtics norotate }
set xtics scale 0
unset key

# Top rows: one IOPS-per-mA panel per record size, as wide as its jobs need; panels wrap
# into rows (PXO, PYO, PW, RH from meta.gp) so that many jobs never make a strip.
do for [p=1:NPANEL] {
	set origin PXO[p], PYO[p]
	set size PW[p], RH
	set title PTITLE[p] font ',12'
	set ylabel (PXO[p] == 0 ? 'IOPS per mA' : '')
	set xrange [0.5:PJOBS[p]+0.5]
	set yrange [YMIN1[p]:YMAX1[p]]
	set xtics ()
	do for [k=1:PJOBS[p]] { set xtics add ((DUMB && k%2==0 ? "\n" : "").TIC[PFIRST[p]+k-1] k) }
	# Invalid bars: a light tint of the device's colour under its hatching.
	plot for [d=1:NDEV] dat using 1:(($7==p && $6==d && $5==1) ? $3 : NaN):($1-BOXW/2):($1+BOXW/2):(YMIN1[p]):(($7==p && $6==d && $5==1) ? $3 : NaN) \
		with boxxyerror fs solid 0.9 border lc rgb '#404040' lc rgb COL[d] lt d notitle, \
	     for [d=1:NDEV] dat using 1:(($7==p && $6==d && $5==0) ? $3 : NaN):($1-BOXW/2):($1+BOXW/2):(YMIN1[p]):(($7==p && $6==d && $5==0) ? $3 : NaN) \
		with boxxyerror fs transparent solid 0.3 noborder lc rgb COL[d] lt d notitle, \
	     for [d=1:NDEV] dat using 1:(($7==p && $6==d && $5==0) ? $3 : NaN):($1-BOXW/2):($1+BOXW/2):(YMIN1[p]):(($7==p && $6==d && $5==0) ? $3 : NaN) \
		with boxxyerror fs transparent pattern 4 border lc rgb COL[d] lc rgb COL[d] lt d notitle, \
	     dat using 1:($7==p ? $3 : NaN):13:14 with yerrorbars pt 0 lw 1.2 lc rgb '#202020' notitle, \
	     dat using 1:($7==p ? $11 : NaN):(strcol(17) eq "" ? strcol(8) : ""):(strcol(10) eq "" ? 0 : 0xC00000) with labels rotate by 90 left offset 0,0.5 font ',9' tc rgb variable notitle, \
	     dat using 1:($7==p ? $11 : NaN):17:(strcol(10) eq "" ? 0x202020 : 0xC00000) with labels center offset 0,0.8 font ',10' tc rgb variable notitle
}

# Bottom: energy per GB of every job on one axis, wrapped into rows (JFIRST, JN, JYO, JW),
# with the key between the rows.
set title JPGTITLE font ',12'
# J/GB in the unit its figures choose (JPGUNIT: kJ/GB, J/GB, mJ/GB), as plain numbers.
set ylabel JPGUNIT
set format y '%.10g'
set yrange [YMIN2:YMAX2]
do for [r=1:NJROW] {
	set origin 0, JYO[r]
	set size JW[r], RH
	set xrange [JFIRST[r]-0.5:JFIRST[r]+JN[r]-0.5]
	set xtics ()
	do for [k=JFIRST[r]:JFIRST[r]+JN[r]-1] { set xtics add ((DUMB && k%2==0 ? "\n" : "").TIC[k] k) }
	if (r == 1) {
		set key outside top center horizontal reverse Left samplen 2 spacing 1.1 width 2 maxrows 2 font ',11'
	} else {
		unset key
		unset title
	}
	plot for [d=1:NDEV] dat using 2:(($6==d && $5==1) ? $4 : NaN):($2-BOXW/2):($2+BOXW/2):(YMIN2):(($6==d && $5==1) ? $4 : NaN) \
		with boxxyerror fs solid 0.9 border lc rgb '#404040' lc rgb COL[d] lt d notitle, \
	     for [d=1:NDEV] dat using 2:(($6==d && $5==0) ? $4 : NaN):($2-BOXW/2):($2+BOXW/2):(YMIN2):(($6==d && $5==0) ? $4 : NaN) \
		with boxxyerror fs transparent solid 0.3 noborder lc rgb COL[d] lt d notitle, \
	     for [d=1:NDEV] dat using 2:(($6==d && $5==0) ? $4 : NaN):($2-BOXW/2):($2+BOXW/2):(YMIN2):(($6==d && $5==0) ? $4 : NaN) \
		with boxxyerror fs transparent pattern 4 border lc rgb COL[d] lc rgb COL[d] lt d notitle, \
	     dat using 2:4:15:16 with yerrorbars pt 0 lw 1.2 lc rgb '#202020' notitle, \
	     dat using 2:12:(strcol(18) eq "" ? strcol(9) : ""):(strcol(10) eq "" ? 0 : 0xC00000) with labels rotate by 90 left offset 0,0.5 font ',9' tc rgb variable notitle, \
	     dat using 2:12:18:(strcol(10) eq "" ? 0x202020 : 0xC00000) with labels center offset 0,0.8 font ',10' tc rgb variable notitle, \
	     for [d=1:NDEV] keyentry with boxes fs solid 0.9 lc rgb COL[d] lt d title DEVKEY[d], \
	     for [i=1:HASINVALID] keyentry with boxes fs pattern 4 lc rgb '#404040' title 'invalid run (hatched)', \
	     for [i=1:HASIVAL] keyentry with yerrorbars pt 0 lw 1.2 lc rgb '#202020' title '95 % interval'
}
unset multiplot
