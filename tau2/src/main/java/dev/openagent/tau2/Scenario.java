package dev.openagent.tau2;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A tau2 user scenario turned into what this environment's deterministic user says. tau2 writes scenarios to an
 * LLM that plays the user ("You are Yusuf Rossi in zip code 19122. You received your order ... If the agent asks
 * for confirmation, ..."); here the user's request is that text in the first person, with "the agent" as "you"
 * ("I am Yusuf Rossi in zip code 19122. I received my order ... If you ask for confirmation, ..."), and
 * {@code ask_user} is answered from what the scenario says the user knows and does not know.
 */
final class Scenario {
    private static final Pattern AGENT = Pattern.compile("\\b([Tt])he (?:customer service )?agent('s)?\\b");
    private static final String YOU = "\u0001";
    private static final Pattern AFTER_AGENT = Pattern.compile(YOU + "(\\w*) ([a-z]+)\\b");
    private static final Pattern YOU_WORD = Pattern.compile("\\b([A-Za-z]+[ ,]+)?([Yy])ou\\b");
    /** Words after which "you" is an object ("asks you to confirm" -> "asks me to confirm"). */
    private static final Set<String> OBJECT_BEFORE = Set.of("to", "for", "with", "at", "about", "from", "by", "than", "of", "ask", "asks",
            "asked", "tell", "tells", "told", "give", "gives", "gave", "help", "helps", "let", "lets", "offer", "offers", "remind",
            "reminds", "send", "sends", "sent", "show", "shows", "call", "calls", "charge", "charges", "refund", "refunds", "provide",
            "provides", "thank", "thanks", "contact", "contacts", "pay", "pays", "cost", "costs", "transfer", "transfers", "assist",
            "assists", "inform", "informs", "notify", "notifies", "email", "emails", "convince", "connect", "treat", "get", "gets", "suit",
            "suits", "allow", "allows", "want", "wants", "need", "needs", "charged", "refunded", "into", "upon", "on", "guide");
    private static final Map<String, String> AGREEMENT = Map.of("is", "are", "has", "have", "does", "do", "was", "were");

    private Scenario() {}

    /** The user's request: what they know (who they are) and why they call, in their own words. */
    static String request(Tau2Task t) {
        String known = t.knownInfo() == null ? "" : firstPerson(t.knownInfo());
        String reason = firstPerson(t.reasonForCall());
        return (known.isEmpty() ? "" : sentence(known) + " ") + reason.replaceAll("\\s*\\n\\s*", " ").replaceAll(" {2,}", " ").strip();
    }

    private static String sentence(String s) {
        String t = s.strip();
        return t.endsWith(".") || t.endsWith("!") || t.endsWith("?") ? t : t + ".";
    }

    /** The scenario's second person as the user's first person, and "the agent" as "you". */
    static String firstPerson(String text) {
        // "the agent" becomes a marker first, so it does not turn into "I" below, and its verb agrees with "you".
        String s = AGENT.matcher(text).replaceAll(m -> Matcher.quoteReplacement(YOU + (m.group(1).equals("T") ? "T" : "t") + (m.group(2) != null ? "s" : "")));
        s = AFTER_AGENT.matcher(s).replaceAll(m -> Matcher.quoteReplacement(YOU + m.group(1) + " " + (m.group(1).endsWith("s") ? m.group(2) : agree(m.group(2)))));
        s = s.replaceAll("\\b(?:You're|you're)\\b", "I'm")
                .replaceAll("\\b[Yy]ou are\\b", "I am")
                .replaceAll("\\b[Yy]ou were\\b", "I was")
                .replaceAll("\\b[Yy]ou'(d|ve|ll)\\b", "I'$1")
                .replaceAll("\\b[Yy]ou name\\b", "My name")
                .replaceAll("\\bYours\\b", "Mine").replaceAll("\\byours\\b", "mine")
                .replaceAll("\\b[Yy]ourself\\b", "myself")
                .replaceAll("\\bYour\\b", "My").replaceAll("\\byour\\b", "my");
        s = YOU_WORD.matcher(s).replaceAll(m -> {
            String before = m.group(1) == null ? "" : m.group(1);
            String word = before.replaceAll("[ ,]+$", "").toLowerCase(Locale.ROOT);
            return Matcher.quoteReplacement(before + (OBJECT_BEFORE.contains(word) && !before.contains(",") ? "me" : "I"));
        });
        // The marker: "you" (its possessive "your"), capitalised where "The agent" was.
        return s.replace(YOU + "Ts", "Your").replace(YOU + "ts", "your").replace(YOU + "T", "You").replace(YOU + "t", "you");
    }

    /** A third-person verb after "the agent" in the form that follows "you" ("asks" -> "ask", "is" -> "are"). */
    private static String agree(String verb) {
        String v = AGREEMENT.get(verb);
        if (v != null) return v;
        if (verb.length() > 3 && verb.endsWith("ies")) return verb.substring(0, verb.length() - 3) + "y";
        if (verb.endsWith("sses") || verb.endsWith("ches") || verb.endsWith("shes") || verb.endsWith("xes")) return verb.substring(0, verb.length() - 2);
        if (verb.length() > 2 && verb.endsWith("s") && !verb.endsWith("ss") && !verb.endsWith("us")) return verb.substring(0, verb.length() - 1);
        return verb;
    }

    /** A reply the user gives when asked to confirm (tau2's policy has the agent ask before every change). */
    static final String CONFIRM = "Yes, please go ahead.";

    /**
     * What the deterministic user answers (keywords separated by '|' -> reply; {@code SimulatedUser} joins the replies
     * of every entry a question mentions, and says it does not know when none): who they are (the scenario's known
     * information), what they do not know (its unknown information), why they call, and yes to a confirmation.
     */
    static Map<String, String> userFacts(Tau2Task t) {
        Map<String, String> facts = new LinkedHashMap<>();
        if (t.knownInfo() != null) {
            facts.put("name|zip|postal|email|e-mail|user id|username|account|identify|identity|verify|authenticate|who are you|address|live|details",
                    sentence(firstPerson(t.knownInfo())));
        }
        if (t.unknownInfo() != null) {
            String u = sentence(firstPerson(t.unknownInfo()));
            String lower = u.toLowerCase(Locale.ROOT);
            StringBuilder keys = new StringBuilder();
            for (String topic : List.of("email", "order number", "order id", "payment", "zip", "address", "phone", "name")) {
                if (lower.contains(topic)) keys.append(keys.isEmpty() ? "" : "|").append(topic);
            }
            if (lower.contains("email")) keys.append("|e-mail");
            if (!keys.isEmpty()) facts.merge(keys.toString(), u, (a, b) -> a + " " + b);
        }
        facts.put("confirm|proceed|go ahead|shall i|should i|yes or no|yes/no|is that correct|is this correct|is that right|okay to|ok to",
                CONFIRM);
        facts.put("what would you like|what do you need|how can i help|what can i do|what you need|your request|help you with|reason|which item|which order|which product",
                "As I said: " + firstPerson(t.reasonForCall()).replaceAll("\\s*\\n\\s*", " ").strip());
        return facts;
    }
}
