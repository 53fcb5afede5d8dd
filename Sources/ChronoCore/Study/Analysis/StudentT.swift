/// The two-sided 95 % critical value of Student's t distribution, `t(0.975, df)`, for confidence
/// intervals. ChronoCore has no `log` or `exp` (no imports at all), so the quantile is the printed
/// table for 1–30 degrees of freedom and the Cornish–Fisher expansion in 1/df above 30 (its error
/// there is below 2·10⁻⁶); a fractional df below 30 (Welch's) is interpolated linearly in 1/df
/// between the table's neighbours (error below 10⁻³ for df ≥ 2). Tests/studies checks it against a
/// numerical integration of the density.
public enum StudentT {
    /// `t(0.975, df)` for df = 1…30.
    static let table: [Double] = [
        12.706204736, 4.302652730, 3.182446305, 2.776445105, 2.570581836, 2.446911851, 2.364624252, 2.306004135,
        2.262157163, 2.228138852, 2.200985160, 2.178812830, 2.160368656, 2.144786688, 2.131449546, 2.119905299,
        2.109815578, 2.100922040, 2.093024054, 2.085963447, 2.079613845, 2.073873068, 2.068657610, 2.063898562,
        2.059538553, 2.055529439, 2.051830516, 2.048407142, 2.045229642, 2.042272456,
    ]
    /// The normal distribution's 0.975 quantile.
    static let z = 1.959963984540054

    /// `t(0.975, df)`; nil below one degree of freedom (no interval can be given).
    public static func quantile975(degreesOfFreedom df: Double) -> Double? {
        guard df >= 1, df.isFinite else { return df.isInfinite ? z : nil }
        if df > 30 { return cornishFisher(df) }
        let lower = Int(df)
        if Double(lower) == df { return table[lower - 1] }
        let upper = lower + 1
        let upperValue = upper == 30 ? table[29] : table[upper - 1]
        // Linear in 1/df: t is very nearly linear in 1/df between neighbours.
        let fraction = (1 / Double(lower) - 1 / df) / (1 / Double(lower) - 1 / Double(upper))
        return table[lower - 1] + fraction * (upperValue - table[lower - 1])
    }

    static func cornishFisher(_ df: Double) -> Double {
        let z2 = z * z, z3 = z2 * z, z5 = z3 * z2, z7 = z5 * z2, z9 = z7 * z2
        let g1 = (z3 + z) / 4
        let g2 = (5 * z5 + 16 * z3 + 3 * z) / 96
        let g3 = (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / 384
        let g4 = (79 * z9 + 776 * z7 + 1482 * z5 - 1920 * z3 - 945 * z) / 92160
        return z + g1 / df + g2 / (df * df) + g3 / (df * df * df) + g4 / (df * df * df * df)
    }
}
