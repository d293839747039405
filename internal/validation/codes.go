package validation

import (
	"errors"
	"strings"
)

var (
	errCountryFormat  = errors.New("must be a two-letter uppercase ISO 3166-1 country code")
	errCountryUnknown = errors.New("must be an assigned ISO 3166-1 alpha-2 country code")

	errCurrencyFormat  = errors.New("must be a three-letter uppercase ISO 4217 currency code")
	errCurrencyUnknown = errors.New("must be an active ISO 4217 currency code")
)

// iso3166Alpha2 lists the 249 officially assigned ISO 3166-1 alpha-2 codes.
// User-assigned codes (such as XK, used for Kosovo), exceptionally or
// transitionally reserved codes (such as UK, EU, AN) are not included.
const iso3166Alpha2 = `
AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ
BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ
CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ
DE DJ DK DM DO DZ
EC EE EG EH ER ES ET
FI FJ FK FM FO FR
GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY
HK HM HN HR HT HU
ID IE IL IM IN IO IQ IR IS IT
JE JM JO JP
KE KG KH KI KM KN KP KR KW KY KZ
LA LB LC LI LK LR LS LT LU LV LY
MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ
NA NC NE NF NG NI NL NO NP NR NU NZ
OM
PA PE PF PG PH PK PL PM PN PR PS PT PW PY
QA
RE RO RS RU RW
SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ
TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ
UA UG UM US UY UZ
VA VC VE VG VI VN VU
WF WS
YE YT
ZA ZM ZW
`

// iso4217Active lists the alphabetic codes of ISO 4217 "list one" (current
// currencies and funds, including precious metals and the X-codes such as
// XTS and XXX). Withdrawn codes (for example HRK, ZWL, ANG, VEF, MRO, STD,
// SLL) are not included. Review this list when SIX publishes an amendment:
// BGN is due to be withdrawn following Bulgaria's adoption of the euro.
const iso4217Active = `
AED AFN ALL AMD AOA ARS AUD AWG AZN
BAM BBD BDT BGN BHD BIF BMD BND BOB BOV BRL BSD BTN BWP BYN BZD
CAD CDF CHE CHF CHW CLF CLP CNY COP COU CRC CUC CUP CVE CZK
DJF DKK DOP DZD
EGP ERN ETB EUR
FJD FKP
GBP GEL GHS GIP GMD GNF GTQ GYD
HKD HNL HTG HUF
IDR ILS INR IQD IRR ISK
JMD JOD JPY
KES KGS KHR KMF KPW KRW KWD KYD KZT
LAK LBP LKR LRD LSL LYD
MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN
NAD NGN NIO NOK NPR NZD
OMR
PAB PEN PGK PHP PKR PLN PYG
QAR
RON RSD RUB RWF
SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL
THB TJS TMT TND TOP TRY TTD TWD TZS
UAH UGX USD USN UYI UYU UYW UZS
VED VES VND VUV
WST
XAF XAG XAU XBA XBB XBC XBD XCD XCG XDR XOF XPD XPF XPT XSU XTS XUA XXX
YER
ZAR ZMW ZWG
`

var (
	countryCodes  = codeSet(iso3166Alpha2)
	currencyCodes = codeSet(iso4217Active)
)

func codeSet(list string) map[string]struct{} {
	fields := strings.Fields(list)
	m := make(map[string]struct{}, len(fields))
	for _, f := range fields {
		m[f] = struct{}{}
	}
	return m
}

// ValidateCountryCode checks that s is an officially assigned ISO 3166-1
// alpha-2 country code in uppercase, such as "DE".
func ValidateCountryCode(s string) error {
	if !isUpperLetters(s, 2) {
		return errCountryFormat
	}
	if _, ok := countryCodes[s]; !ok {
		return errCountryUnknown
	}
	return nil
}

// ValidateCurrencyCode checks that s matches ^[A-Z]{3}$ and is an active
// ISO 4217 currency code, such as "EUR".
func ValidateCurrencyCode(s string) error {
	if !isUpperLetters(s, 3) {
		return errCurrencyFormat
	}
	if _, ok := currencyCodes[s]; !ok {
		return errCurrencyUnknown
	}
	return nil
}

// isUpperLetters reports whether s consists of exactly n letters A-Z.
func isUpperLetters(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isUpper(s[i]) {
			return false
		}
	}
	return true
}
