package dev.openagent.byo;

/** The small inline-tool environment file the loader's tests start from: one tool, lookup, answering codes A1 and B2. */
final class LookupFile {
    private LookupFile() {}

    /** The file with this id (lookup A1 gives {"name": "Alpha", "next": "B2"}, B2 {"name": "Beta"}, others an error). */
    static String yaml(String id) {
        return """
                id: %s
                tools:
                  lookup:
                    description: Looks a code up.
                    parameters: {type: object, properties: {code: {type: string}}, required: [code]}
                    responses:
                      - when: {code: A1}
                        response: {"name": "Alpha", "next": "B2"}
                      - when: {code: B2}
                        response: {"name": "Beta"}
                      - error: "no code {code}"
                tasks: tasks.jsonl
                """.formatted(id);
    }
}
