package validation

// ibanLengths maps the country codes of the SWIFT IBAN registry (release
// 100, 89 countries) to the total IBAN length in characters. Dependent
// territories that use their parent's prefix (e.g. French overseas
// departments use FR, Jersey/Guernsey/Isle of Man use GB, Åland uses FI)
// have no entry of their own. XK (Kosovo) is a registry code even though it
// is not an officially assigned ISO 3166-1 code.
var ibanLengths = map[string]int{
	"AD": 24, // Andorra (SEPA)
	"AE": 23, // United Arab Emirates
	"AL": 28, // Albania (SEPA)
	"AT": 20, // Austria (SEPA)
	"AZ": 28, // Azerbaijan
	"BA": 20, // Bosnia and Herzegovina
	"BE": 16, // Belgium (SEPA)
	"BG": 22, // Bulgaria (SEPA)
	"BH": 22, // Bahrain
	"BI": 27, // Burundi
	"BR": 29, // Brazil
	"BY": 28, // Belarus
	"CH": 21, // Switzerland (SEPA)
	"CR": 22, // Costa Rica
	"CY": 28, // Cyprus (SEPA)
	"CZ": 24, // Czechia (SEPA)
	"DE": 22, // Germany (SEPA)
	"DJ": 27, // Djibouti
	"DK": 18, // Denmark (SEPA)
	"DO": 28, // Dominican Republic
	"EE": 20, // Estonia (SEPA)
	"EG": 29, // Egypt
	"ES": 24, // Spain (SEPA)
	"FI": 18, // Finland (SEPA)
	"FK": 18, // Falkland Islands
	"FO": 18, // Faroe Islands
	"FR": 27, // France (SEPA)
	"GB": 22, // United Kingdom (SEPA)
	"GE": 22, // Georgia
	"GI": 23, // Gibraltar (SEPA)
	"GL": 18, // Greenland
	"GR": 27, // Greece (SEPA)
	"GT": 28, // Guatemala
	"HN": 28, // Honduras
	"HR": 21, // Croatia (SEPA)
	"HU": 28, // Hungary (SEPA)
	"IE": 22, // Ireland (SEPA)
	"IL": 23, // Israel
	"IQ": 23, // Iraq
	"IS": 26, // Iceland (SEPA)
	"IT": 27, // Italy (SEPA)
	"JO": 30, // Jordan
	"KW": 30, // Kuwait
	"KZ": 20, // Kazakhstan
	"LB": 28, // Lebanon
	"LC": 32, // Saint Lucia
	"LI": 21, // Liechtenstein (SEPA)
	"LT": 20, // Lithuania (SEPA)
	"LU": 20, // Luxembourg (SEPA)
	"LV": 21, // Latvia (SEPA)
	"LY": 25, // Libya
	"MC": 27, // Monaco (SEPA)
	"MD": 24, // Moldova (SEPA)
	"ME": 22, // Montenegro (SEPA)
	"MK": 19, // North Macedonia (SEPA)
	"MN": 20, // Mongolia
	"MR": 27, // Mauritania
	"MT": 31, // Malta (SEPA)
	"MU": 30, // Mauritius
	"NI": 28, // Nicaragua
	"NL": 18, // Netherlands (SEPA)
	"NO": 15, // Norway (SEPA)
	"OM": 23, // Oman
	"PK": 24, // Pakistan
	"PL": 28, // Poland (SEPA)
	"PS": 29, // Palestine
	"PT": 25, // Portugal (SEPA)
	"QA": 29, // Qatar
	"RO": 24, // Romania (SEPA)
	"RS": 22, // Serbia (SEPA)
	"RU": 33, // Russia
	"SA": 24, // Saudi Arabia
	"SC": 31, // Seychelles
	"SD": 18, // Sudan
	"SE": 24, // Sweden (SEPA)
	"SI": 19, // Slovenia (SEPA)
	"SK": 24, // Slovakia (SEPA)
	"SM": 27, // San Marino (SEPA)
	"SO": 23, // Somalia
	"ST": 25, // Sao Tome and Principe
	"SV": 28, // El Salvador
	"TL": 23, // Timor-Leste
	"TN": 24, // Tunisia
	"TR": 26, // Türkiye
	"UA": 29, // Ukraine
	"VA": 22, // Vatican City (SEPA)
	"VG": 24, // British Virgin Islands
	"XK": 20, // Kosovo
	"YE": 30, // Yemen
}
